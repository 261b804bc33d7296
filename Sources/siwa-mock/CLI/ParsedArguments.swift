/// The result of parsing one command's arguments against its `OptionSpec`s.
struct ParsedArguments: Sendable {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    var positionals: [String] = []
    /// Where each value came from, for error messages (`--port` or `SIWA_MOCK_PORT`).
    private(set) var sources: [String: String] = [:]

    mutating func add(value: String, for name: String, source: String) {
        values[name, default: []].append(value)
        sources[name] = source
    }

    mutating func set(flag name: String) { flags.insert(name) }

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ name: String) -> Bool { flags.contains(name) }
    func source(of name: String) -> String { sources[name] ?? "--\(name)" }

    /// An integer option within `range`, or a usage error that names the option and the range.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard text.count <= 12, let number = Int(text), range.contains(number) else {
            throw UsageError(
                "\(source(of: name)) must be an integer from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// A required value option.
    func required(_ name: String) throws(UsageError) -> String {
        guard let text = value(name) else { throw UsageError("Missing expected argument '--\(name) <value>'") }
        return text
    }
}
