/// Typed readers for the second stage: each returns the value or throws a diagnostic at the node.
extension Node {
    /// The text of a scalar in any style.
    package func string() throws(ScenarioDiagnostic) -> String {
        guard case .scalar(let text, _) = kind else { throw diagnostic("expected a string, found \(kindDescription)") }
        return text
    }

    /// The items of a sequence.
    package func sequence() throws(ScenarioDiagnostic) -> [Node] {
        guard case .sequence(let items) = kind else {
            throw diagnostic("expected a sequence, found \(kindDescription)")
        }
        return items
    }

    /// The entries of a mapping, wrapped for key lookup and unknown-key checks.
    package func mapping() throws(ScenarioDiagnostic) -> MappingReader {
        try MappingReader(self)
    }

    /// The text of a plain scalar, for readers of numbers and booleans; quoted text is a string.
    func plainText(expected: String) throws(ScenarioDiagnostic) -> String {
        switch kind {
        case .scalar(let text, .plain):
            return text
        case .scalar(let text, _):
            throw diagnostic(
                "expected \(expected), found the quoted string '\(Node.excerpt(text))' (remove the quotes)")
        default:
            throw diagnostic("expected \(expected), found \(kindDescription)")
        }
    }

    /// A decimal integer (`42`, `-7`, `+3`), written plain, within Int64's range.
    package func int() throws(ScenarioDiagnostic) -> Int64 {
        let text = try plainText(expected: "an integer")
        guard let value = Node.parseInteger(Substring(text)) else {
            if Node.isIntegerSyntax(Substring(text)) {
                throw diagnostic("integer '\(Node.excerpt(text))' is out of range")
            }
            throw diagnostic("expected an integer, found '\(Node.excerpt(text))'")
        }
        return value
    }

    /// `true` or `false`, written plain. YAML 1.1's `yes`, `no`, `on`, `off` and capitalised forms are
    /// rejected rather than read as booleans (YAML 1.2 treats them as strings).
    package func bool() throws(ScenarioDiagnostic) -> Bool {
        let text = try plainText(expected: "true or false")
        switch text {
        case "true": return true
        case "false": return false
        case "yes", "no", "on", "off", "y", "n", "Yes", "No", "YES", "NO", "On", "Off", "ON", "OFF":
            throw diagnostic("expected true or false, found '\(text)' (YAML 1.2 booleans are only true and false)")
        case "True", "False", "TRUE", "FALSE":
            throw diagnostic("expected true or false, found '\(text)' (booleans are lowercase)")
        default:
            throw diagnostic("expected true or false, found '\(Node.excerpt(text))'")
        }
    }

    /// A finite decimal number (`0.25`, `1`, `-1.5e3`, `.5`), written plain. `.inf` and `.nan` are rejected.
    package func double() throws(ScenarioDiagnostic) -> Double {
        let text = try plainText(expected: "a number")
        guard Node.isFloatSyntax(Substring(text)), let value = Double(text) else {
            throw diagnostic("expected a number, found '\(Node.excerpt(text))'")
        }
        guard value.isFinite else { throw diagnostic("number '\(Node.excerpt(text))' is out of range") }
        return value
    }

    /// `[-+]?[0-9]+` within Int64, or `nil`.
    static func parseInteger(_ text: Substring) -> Int64? {
        guard isIntegerSyntax(text) else { return nil }
        var digits = text
        let negative = digits.first == "-"
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        var value: Int64 = 0
        for c in digits.utf8 {
            let d = Int64(c - 0x30)
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? shifted.subtractingReportingOverflow(d) : shifted.addingReportingOverflow(d)
            if o1 || o2 { return nil }
            value = next
        }
        return value
    }

    static func isIntegerSyntax(_ text: Substring) -> Bool {
        var digits = text
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// YAML 1.2 core schema decimal floats: `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
    static func isFloatSyntax(_ text: Substring) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            var n = 0
            while let c = bytes.first, (0x30...0x39).contains(c) {
                bytes = bytes.dropFirst()
                n += 1
            }
            return n
        }
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        var mantissa = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// The text shortened to 40 characters for messages.
    static func excerpt(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(37)) + "..."
    }
}
