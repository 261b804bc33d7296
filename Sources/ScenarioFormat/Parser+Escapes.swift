/// Backslash escapes in double-quoted scalars (YAML 1.2 §5.7, a superset of JSON's).
extension Parser {
    /// Decodes the escape at the cursor (a backslash) and moves past it; `limit` is the closing quote.
    mutating func parseEscape(limit: Int) throws(ParseFailure) -> Unicode.Scalar {
        let start = position
        index += 1
        guard index < limit else {
            throw failure("invalid escape sequence '\\' at the end of a double-quoted scalar", at: start)
        }
        let c = text[index]
        index += 1
        switch c {
        case "0": return "\u{0}"
        case "a": return "\u{7}"
        case "b": return "\u{8}"
        case "t", "\t": return "\t"
        case "n": return "\n"
        case "v": return "\u{B}"
        case "f": return "\u{C}"
        case "r": return "\r"
        case "e": return "\u{1B}"
        case " ": return " "
        case "\"": return "\""
        case "/": return "/"
        case "\\": return "\\"
        case "N": return "\u{85}"
        case "_": return "\u{A0}"
        case "L": return "\u{2028}"
        case "P": return "\u{2029}"
        case "x", "u", "U":
            let count = c == "x" ? 2 : c == "u" ? 4 : 8
            let value = try hexDigits(count, limit: limit, escape: c, start: start)
            if c == "u" && (0xD800...0xDBFF).contains(value) {
                return try lowSurrogate(after: value, limit: limit, start: start)
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw failure(
                    "invalid escape sequence '\\\(Character(c))\(hexText(value, count))': not a Unicode scalar value (unpaired surrogate or above U+10FFFF)",
                    at: start)
            }
            return scalar
        default:
            throw failure("invalid escape sequence '\\\(Character(c))' in double-quoted scalar", at: start)
        }
    }

    /// Reads exactly `count` hexadecimal digits.
    mutating func hexDigits(_ count: Int, limit: Int, escape: Unicode.Scalar, start: SourcePosition)
        throws(ParseFailure) -> UInt32
    {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard index < limit, let digit = Parser.hexValue(text[index]) else {
                throw failure(
                    "invalid escape sequence '\\\(Character(escape))': expected \(count) hexadecimal digits", at: start)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Combines a `\uD8xx` high surrogate with the `\uDCxx` escape that must follow it.
    mutating func lowSurrogate(after high: UInt32, limit: Int, start: SourcePosition) throws(ParseFailure)
        -> Unicode.Scalar
    {
        guard index + 1 < limit, text[index] == "\\", text[index + 1] == "u" else {
            throw failure("invalid escape sequence '\\u\(hexText(high, 4))': unpaired surrogate", at: start)
        }
        index += 2
        let low = try hexDigits(4, limit: limit, escape: "u", start: start)
        guard (0xDC00...0xDFFF).contains(low) else {
            throw failure("invalid escape sequence '\\u\(hexText(high, 4))': unpaired surrogate", at: start)
        }
        let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        return Unicode.Scalar(value)!
    }

    static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c.value {
        case 0x30...0x39: c.value - 0x30
        case 0x41...0x46: c.value - 0x41 + 10
        case 0x61...0x66: c.value - 0x61 + 10
        default: nil
        }
    }

    func hexText(_ value: UInt32, _ count: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, count - digits.count)) + digits
    }
}
