/// One `--option` as the parser and `--help` see it. Commands declare it through `Option`/`Flag`, so
/// parsing, help, default and env-var fallback come from one place (swift-argument-parser's `@Option`).
struct OptionSpec: Sendable {
    enum Kind: Sendable {
        case value(placeholder: String)
        case flag
    }

    var name: String
    var short: Character?
    var kind: Kind
    var help: String
    /// Shown as `(default: …)` in help; an `Option` derives it from the value it reads as when absent.
    var defaultDescription: String?
    /// Environment variable consulted when the option is absent (`SIWA_MOCK_PORT` for `--port`).
    var environment: String?
    /// May be given several times (values are collected in order).
    var repeatable: Bool = false
    /// Shown without brackets in the usage line; the command enforces it.
    var required: Bool = false

    static func value(
        _ name: String, _ placeholder: String, help: String, default defaultDescription: String? = nil,
        environment: Bool = false, repeatable: Bool = false, required: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: nil, kind: .value(placeholder: placeholder), help: help,
            defaultDescription: defaultDescription,
            environment: environment ? OptionSpec.environmentName(for: name) : nil, repeatable: repeatable,
            required: required)
    }

    static func flag(_ name: String, short: Character? = nil, help: String, environment: Bool = false) -> OptionSpec {
        OptionSpec(
            name: name, short: short, kind: .flag, help: help, defaultDescription: nil,
            environment: environment ? OptionSpec.environmentName(for: name) : nil)
    }

    /// `public-url` → `SIWA_MOCK_PUBLIC_URL`.
    static func environmentName(for name: String) -> String {
        "SIWA_MOCK_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// `--port <port>` as used in usage lines and help.
    var synopsis: String {
        switch kind {
        case .flag: "--\(name)"
        case .value(let placeholder): "--\(name) <\(placeholder)>"
        }
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
