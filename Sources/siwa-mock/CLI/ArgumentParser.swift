/// Parses `argv` for one command: `--name value`, `--name=value`, flags, `-h`, `--` and positionals,
/// then fills absent options from their environment variables.
struct ArgumentParser {
    var options: [OptionSpec]
    var acceptsPositionals: Bool

    func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            // `-2d` is a negative value (`clock advance -2d`), not an option: no option starts with a digit.
            let negativeNumber = argument.dropFirst().first.map { ("0"..."9").contains($0) } ?? false
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" || negativeNumber {
                guard acceptsPositionals else {
                    throw UsageError("Unexpected argument '\(argument)'")
                }
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            let (name, inlineValue) = split(argument)
            guard let spec = lookUp(name) else {
                throw UsageError(
                    "Unknown option '\(argument.split(separator: "=").first.map(String.init) ?? argument)'"
                        + suggestion(for: name))
            }
            switch spec.kind {
            case .flag:
                if inlineValue != nil { throw UsageError("Flag '--\(spec.name)' does not take a value") }
                parsed.set(flag: spec.name)
            case .value:
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError("Missing value for '\(spec.synopsis)'")
                    }
                    value = arguments[index]
                    index += 1
                }
                if !spec.repeatable, parsed.value(spec.name) != nil {
                    throw UsageError("Option '--\(spec.name)' was given more than once")
                }
                parsed.add(value: value, for: spec.name, source: "--\(spec.name)")
            }
        }
        for spec in options {
            guard let variable = spec.environment, let text = environment[variable], !text.isEmpty else { continue }
            switch spec.kind {
            case .flag:
                guard !parsed.has(spec.name) else { continue }
                switch text.lowercased() {
                case "1", "true", "yes", "on": parsed.set(flag: spec.name)
                case "0", "false", "no", "off": break
                default: throw UsageError("\(variable) must be true or false, got '\(text)'")
                }
            case .value:
                if parsed.value(spec.name) == nil { parsed.add(value: text, for: spec.name, source: variable) }
            }
        }
        return parsed
    }

    private func split(_ argument: String) -> (name: String, value: String?) {
        if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                return (String(body[..<equals]), String(body[body.index(after: equals)...]))
            }
            return (String(body), nil)
        }
        return (String(argument.dropFirst()), nil)
    }

    private func lookUp(_ name: String) -> OptionSpec? {
        if name.count == 1, let short = name.first {
            return options.first { $0.short == short }
        }
        return options.first { $0.name == name }
    }

    private func suggestion(for name: String) -> String {
        let candidates = options.map(\.name)
        guard let best = EditDistance.closest(to: name, among: candidates, maximum: 3) else { return "" }
        return ". Did you mean '--\(best)'?"
    }
}

/// Levenshtein distance, for "did you mean" hints.
enum EditDistance {
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    static func closest(to word: String, among candidates: [String], maximum: Int) -> String? {
        let scored = candidates.map { ($0, distance(word, $0)) }.filter { $0.1 <= maximum }
        return scored.min { $0.1 < $1.1 }?.0
    }
}
