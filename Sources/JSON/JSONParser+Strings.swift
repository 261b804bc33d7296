extension JSONParser {
    /// Parses a string starting at its opening quote: validates UTF-8, rejects raw control characters,
    /// decodes escapes and pairs surrogates (a lone surrogate is an error).
    mutating func parseString() throws(JSONParseError) -> String {
        let start = position
        position += 1  // opening quote
        var decoded: [UInt8] = []
        var runStart = position
        while true {
            guard position < bytes.count else { throw error(at: start, "unterminated string") }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                decoded.append(contentsOf: bytes[runStart..<position])
                position += 1
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                decoded.append(contentsOf: bytes[runStart..<position])
                try parseEscape(into: &decoded)
                runStart = position
            case 0x00..<0x20:
                throw error(at: position, "unescaped control character \(describe(byte)) in string")
            case 0x20..<0x80:
                position += 1
            default:
                position += try validUTF8SequenceLength(at: position)
            }
        }
    }

    /// Decodes one escape sequence starting at the backslash and appends its UTF-8.
    private mutating func parseEscape(into decoded: inout [UInt8]) throws(JSONParseError) {
        let start = position
        position += 1
        guard let kind = peek() else { throw error(at: start, "unterminated escape sequence") }
        position += 1
        switch kind {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(kind)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try parseHex4(escapeStart: start)
            var scalarValue = UInt32(unit)
            if (0xDC00...0xDFFF).contains(unit) {
                throw error(at: start, "lone low surrogate \\u\(hex4(unit)) in string")
            }
            if (0xD800...0xDBFF).contains(unit) {
                let lowStart = position
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw error(at: start, "lone high surrogate \\u\(hex4(unit)) in string") }
                position += 2
                let low = try parseHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(at: start, "high surrogate \\u\(hex4(unit)) not followed by a low surrogate")
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            }
            // Surrogates were handled above, so this scalar is always valid.
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw error(at: start, "invalid code point in escape")
            }
            decoded.append(contentsOf: scalar.utf8)
        default:
            throw error(at: start, "invalid escape sequence '\\\(Character(Unicode.Scalar(kind)))'")
        }
    }

    /// Reads four hex digits after `\u`.
    private mutating func parseHex4(escapeStart: Int) throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw error(at: escapeStart, "unterminated \\u escape") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(at: position, "invalid hex digit \(describe(byte)) in \\u escape")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    private func hex4(_ unit: UInt16) -> String {
        let hex = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// Length of the well-formed UTF-8 sequence at `offset` (Unicode Table 3-7: no overlongs,
    /// no encoded surrogates, nothing above U+10FFFF).
    private func validUTF8SequenceLength(at offset: Int) throws(JSONParseError) -> Int {
        let lead = bytes[offset]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default: throw error(at: offset, "invalid UTF-8 lead byte \(describe(lead))")
        }
        for index in 1..<length {
            let at = offset + index
            guard at < bytes.count else { throw error(at: offset, "truncated UTF-8 sequence") }
            let range = index == 1 ? secondRange : 0x80...0xBF
            guard range.contains(bytes[at]) else { throw error(at: at, "invalid UTF-8 continuation byte") }
        }
        return length
    }
}
