/// A recursive-descent RFC 8259 parser over a byte buffer.
///
/// Recursion happens only on nested arrays and objects and is bounded by `maxDepth`; every other
/// construct is parsed in a loop. Every failure is a ``JSONParseError`` carrying the byte offset.
struct JSONParser {
    let bytes: [UInt8]
    let maxDepth: Int
    var position = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Parses one complete document: a value surrounded only by whitespace.
    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if position < bytes.count {
            throw error(at: position, "unexpected \(describe(bytes[position])) after the JSON value")
        }
        return value
    }

    // MARK: - Values

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw error(at: position, "unexpected end of input, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case let byte: throw error(at: position, "unexpected \(describe(byte)), expected a value")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONObject {
        try checkDepth(depth)
        position += 1  // {
        var object = JSONObject()
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return object
        }
        while true {
            skipWhitespace()
            let keyOffset = position
            guard peek() == UInt8(ascii: "\"") else { throw unexpected("a string key") }
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw unexpected("':' after an object key") }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            guard object.insertNew(key, value) else {
                throw error(at: keyOffset, "duplicate object key \"\(key)\"")
            }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return object
            default: throw unexpected("',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> [JSONValue] {
        try checkDepth(depth)
        position += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return elements
            default: throw unexpected("',' or ']' in an array")
            }
        }
    }

    private func checkDepth(_ depth: Int) throws(JSONParseError) {
        if depth > maxDepth { throw error(at: position, "nesting deeper than \(maxDepth) levels") }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = position
        for expected in UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
            guard position < bytes.count, bytes[position] == expected else {
                throw error(at: start, "invalid literal, expected '\(literal)'")
            }
            position += 1
        }
    }

    // MARK: - Numbers

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; integers that fit become `.int`.
    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var isInteger = true
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), isDigit(first) else { throw unexpected("a digit") }
        position += 1
        if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
            throw error(at: start, "leading zeros are not allowed in numbers")
        }
        skipDigits()
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let digit = peek(), isDigit(digit) else { throw unexpected("a digit after '.'") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek(), isDigit(digit) else { throw unexpected("a digit in the exponent") }
            skipDigits()
        }
        let text = bytes[start..<position]
        if isInteger, let integer = Self.int64(text) { return .int(integer) }
        guard let double = Double(String(decoding: text, as: UTF8.self)), double.isFinite else {
            throw error(at: start, "number out of range")
        }
        return .double(double)
    }

    /// The integer value of validated digits, or nil when it does not fit in `Int64`.
    private static func int64(_ text: ArraySlice<UInt8>) -> Int64? {
        let negative = text.first == UInt8(ascii: "-")
        var value: Int64 = 0
        for byte in text where byte != UInt8(ascii: "-") {
            let digit = Int64(byte &- UInt8(ascii: "0"))
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
        }
        return value
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { position += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: - Helpers

    func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipWhitespace() {
        while let byte = peek(),
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\t")
        {
            position += 1
        }
    }

    func error(at offset: Int, _ message: String) -> JSONParseError {
        JSONParseError(offset: offset, message: message)
    }

    /// An error at the current position naming what was found and what was expected.
    func unexpected(_ expected: String) -> JSONParseError {
        guard let byte = peek() else { return error(at: position, "unexpected end of input, expected \(expected)") }
        return error(at: position, "unexpected \(describe(byte)), expected \(expected)")
    }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }
}

extension JSONValue {
    /// Parses RFC 8259 JSON. Rejects trailing garbage, nesting deeper than `maxDepth`, invalid UTF-8,
    /// lone surrogates and duplicate object keys (the last would silently win otherwise).
    ///
    /// Never traps on any input; recursion is bounded by `maxDepth` (keep it small, e.g. ≤ 1000).
    /// - Throws: ``JSONParseError`` with the byte offset of the first problem.
    package static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: Array(bytes), maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    /// Parses the UTF-8 of `text`; see ``parse(_:maxDepth:)``.
    package static func parse(_ text: String, maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}
