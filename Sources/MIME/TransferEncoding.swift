/// Content-Transfer-Encoding decoders (RFC 2045 §6.7, §6.8), lenient about what they skip.
enum TransferEncoding {
    static func decodeBase64(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            let value: UInt8
            switch byte {
            case 65...90: value = byte - 65
            case 97...122: value = byte - 71
            case 48...57: value = byte + 4
            case 43: value = 62
            case 47: value = 63
            default: continue  // whitespace, padding and stray characters are skipped
            }
            buffer = (buffer << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return out
    }

    static func decodeQuotedPrintable(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "=") else {
                out.append(byte)
                index += 1
                continue
            }
            let rest = bytes[(index + 1)...]
            if rest.first == 13 || rest.first == 10 {
                // Soft line break.
                index += rest.first == 13 && rest.dropFirst().first == 10 ? 3 : 2
            } else if rest.count >= 2, let high = hex(rest[rest.startIndex]), let low = hex(rest[rest.startIndex + 1]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte)
                index += 1
            }
        }
        return out
    }

    /// Whether `charset` names ISO-8859-1, the one 8-bit charset read besides UTF-8.
    static func isLatin1(_ charset: String) -> Bool {
        let lowered = charset.lowercased()
        return lowered == "iso-8859-1" || lowered == "latin1"
    }

    /// ISO-8859-1 bytes as text (each byte is the code point of the same number).
    static func latin1Text(_ bytes: [UInt8]) -> String {
        String(bytes.map { Character(Unicode.Scalar($0)) })
    }

    static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 65...70: byte - 55
        case 97...102: byte - 87
        default: nil
        }
    }
}
