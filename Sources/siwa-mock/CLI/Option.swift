/// One option of a command, declared once: name, environment variable, default, help and the parser
/// that turns its text into a value (swift-argument-parser's `@Option` as a value). `--help` shows the
/// declared default, and `ParsedArguments.read(_:)` returns that same default when the option is
/// absent, so the two cannot drift apart.
struct Option<Value: Sendable>: Sendable {
    let spec: OptionSpec
    let defaultValue: Value
    /// Turns every given value (in order, at least one) into the option's value.
    let convert: @Sendable ([String]) throws(OptionValueError) -> Value
}

/// A boolean `--flag` (optionally from an environment variable: `1/true/yes/on`, `0/false/no/off`).
struct Flag: Sendable {
    let spec: OptionSpec

    init(_ name: String, short: Character? = nil, help: String, environment: Bool = false) {
        spec = .flag(name, short: short, help: help, environment: environment)
    }
}

extension Option {
    /// An option with a default: absent, it reads as `defaultValue`, shown in help as `shownDefault`
    /// (the value itself unless a description reads better, e.g. "15552000 (180 days)").
    init(
        _ name: String, _ placeholder: String, help: String, default defaultValue: Value, shownDefault: String? = nil,
        environment: Bool = false, parser: ValueParser<Value>
    ) {
        spec = .value(
            name, placeholder, help: help, default: shownDefault ?? Self.text(of: defaultValue),
            environment: environment)
        self.defaultValue = defaultValue
        convert = { values throws(OptionValueError) in try parser.parse(values[values.count - 1]) }
    }

    /// A default as `--help` shows it. Every `serve` start builds these tables: the common types are
    /// written directly, since `String(describing:)` on a generic value looks up conformances at run
    /// time (a few percent of a start-up, issue #26); give other types a `shownDefault`.
    private static func text(of value: Value) -> String {
        switch value {
        case let text as String: return text
        case let number as Int: return String(number)
        case let flag as Bool: return flag ? "true" : "false"
        default: return String(describing: value)
        }
    }

    /// An option without a value of its own when absent (nil); `shownDefault` documents what applies
    /// then when it is computed elsewhere (`http://HOST:PORT`).
    static func optional<Wrapped: Sendable>(
        _ name: String, _ placeholder: String, help: String, shownDefault: String? = nil, environment: Bool = false,
        required: Bool = false, parser: ValueParser<Wrapped>
    ) -> Option<Wrapped?> where Value == Wrapped? {
        Option<Wrapped?>(
            spec: .value(
                name, placeholder, help: help, default: shownDefault, environment: environment, required: required),
            defaultValue: nil,
            convert: { values throws(OptionValueError) in try parser.parse(values[values.count - 1]) })
    }

    /// An option that may be given several times; reads as every value in order (empty when absent).
    static func repeated<Element: Sendable>(
        _ name: String, _ placeholder: String, help: String, shownDefault: String? = nil, environment: Bool = false,
        parser: ValueParser<Element>
    ) -> Option<[Element]> where Value == [Element] {
        Option<[Element]>(
            spec: .value(
                name, placeholder, help: help, default: shownDefault, environment: environment, repeatable: true),
            defaultValue: [],
            convert: { values throws(OptionValueError) in
                var parsed: [Element] = []
                for value in values { parsed.append(try parser.parse(value)) }
                return parsed
            })
    }
}

extension ParsedArguments {
    /// The option's value: parsed from the command line or its environment variable, else its default.
    /// A malformed value is a usage error naming where it came from (`--port` or `SIWA_MOCK_PORT`).
    func read<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
        let given = all(option.spec.name)
        guard !given.isEmpty else { return option.defaultValue }
        do throws(OptionValueError) {
            return try option.convert(given)
        } catch {
            throw UsageError("\(source(of: option.spec.name)) \(error.message)")
        }
    }

    /// A required option's value, or the usage error for its absence.
    func read<Wrapped>(required option: Option<Wrapped?>) throws(UsageError) -> Wrapped {
        guard let value = try read(option) else {
            throw UsageError("Missing expected argument '\(option.spec.synopsis)'")
        }
        return value
    }

    func read(_ flag: Flag) -> Bool { has(flag.spec.name) }

    /// Whether the option was given (on the command line or through its environment variable).
    func isGiven<Value>(_ option: Option<Value>) -> Bool { value(option.spec.name) != nil }
}
