extension JSONValue {
    /// Compact serialization (no whitespace), object keys in insertion order, `/` not escaped,
    /// non-ASCII written as UTF-8, control characters as `\u00XX` (`\b \f \n \r \t` in short form).
    ///
    /// Integers print as integers; doubles print in the shortest form that round-trips (`1.0`, `1e-07`).
    /// A non-finite double has no JSON form and is written as `null`.
    package func serialized() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        write(to: &output)
        return output
    }

    /// ``serialized()`` as a `String`.
    package func serializedString() -> String {
        String(decoding: serialized(), as: UTF8.self)
    }

    func write(to output: inout [UInt8]) {
        switch self {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let value):
            output.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value):
            output.append(contentsOf: String(value).utf8)
        case .double(let value):
            output.append(contentsOf: value.isFinite ? value.description.utf8 : "null".utf8)
        case .string(let value):
            Self.writeString(value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            // By key, without building `pairs` (an array per object): listings write thousands of objects.
            for (index, key) in object.keys.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                object[key]?.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Copies runs that need no escaping in one append each (most strings are one run: tokens, ids).
    static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var runStart = 0
            var index = nextEscape(in: bytes, from: 0)
            while index < bytes.count {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                appendEscape(bytes[index], to: &output)
                runStart = index + 1
                index = nextEscape(in: bytes, from: runStart)
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The index of the first byte at or after `start` that JSON escapes (a control byte, `"` or `\\`),
    /// or `bytes.count`. Eight bytes a step: tokens and id_tokens are long runs without any ("has a byte
    /// less than n" and "has a zero byte", Hacker's Delight §6-1), about a sixth of a byte-by-byte scan.
    static func nextEscape(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let control = (word &- ones &* 0x20) & ~word
            let found = (control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs
            if found != 0 { break }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return index
    }

    private static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        default:
            let hexDigits: StaticString = "0123456789abcdef"
            output.append(contentsOf: "u00".utf8)
            output.append(hexDigits.utf8Start[Int(byte >> 4)])
            output.append(hexDigits.utf8Start[Int(byte & 0x0F)])
        }
    }
}
