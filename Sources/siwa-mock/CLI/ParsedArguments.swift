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
}
