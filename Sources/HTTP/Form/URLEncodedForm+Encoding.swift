extension URLEncodedForm {
    /// Encodes pairs as `a=1&b=2`, percent-encoding every byte except the RFC 3986 unreserved characters
    /// (`A-Z a-z 0-9 - . _ ~`); spaces become `%20`, which every form decoder accepts.
    package static func encode(_ pairs: [(String, String)]) -> String {
        var out: [UInt8] = []
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "&")) }
            appendEncoded(pair.0, to: &out)
            out.append(UInt8(ascii: "="))
            appendEncoded(pair.1, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Percent-encodes one component the same way as `encode`.
    package static func encodeComponent(_ text: String) -> String {
        var out: [UInt8] = []
        appendEncoded(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    static func appendEncoded(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
