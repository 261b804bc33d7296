import ScenarioFormat

/// Why an option's text is not a value: the phrase after the option's name
/// (`must be an integer from 0 to 65535, got '70000'`).
struct OptionValueError: Error, Sendable, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}

/// How an option's text becomes a value; each parser's message names what it expected and what it got.
struct ValueParser<Value: Sendable>: Sendable {
    let parse: @Sendable (String) throws(OptionValueError) -> Value
}

extension ValueParser where Value == String {
    /// Any text, including empty.
    static var text: ValueParser { ValueParser { $0 } }

    /// Text that is not empty (a path, a token, a name).
    static var nonEmpty: ValueParser {
        ValueParser { text throws(OptionValueError) in
            guard !text.isEmpty else { throw OptionValueError("must not be empty") }
            return text
        }
    }

    /// An `http://` base URL, trailing slashes removed (plain HTTP only: the mock's control listener).
    static var httpURL: ValueParser {
        ValueParser { text throws(OptionValueError) in
            guard text.lowercased().hasPrefix("http://"), text.count > 7 else {
                throw OptionValueError("must be an http:// URL, got '\(text)'")
            }
            var url = text
            while url.hasSuffix("/") { url.removeLast() }
            return url
        }
    }

    /// An `http://` or `https://` URL.
    static var webURL: ValueParser {
        ValueParser { text throws(OptionValueError) in
            let lower = text.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), text.count > 8 else {
                throw OptionValueError("must be an http:// or https:// URL, got '\(text)'")
            }
            return text
        }
    }
}

extension ValueParser where Value == Int {
    /// A decimal integer within `range`.
    static func integer(in range: ClosedRange<Int>) -> ValueParser {
        ValueParser { text throws(OptionValueError) in
            guard text.count <= 12, let number = Int(text), range.contains(number) else {
                throw OptionValueError(
                    "must be an integer from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
            }
            return number
        }
    }
}

extension ValueParser where Value == Int64 {
    /// A duration in milliseconds in the one time grammar (`500ms`, `10s`, `1h30m`; never negative).
    static var duration: ValueParser {
        ValueParser { text throws(OptionValueError) in
            do throws(TimeSyntax.Failure) {
                return try TimeSyntax.durationMilliseconds(text)
            } catch {
                throw OptionValueError("must be a duration: \(error.message)")
            }
        }
    }
}

extension ValueParser {
    /// One of a fixed set of words (case-insensitive), each mapped to a value.
    static func choice(_ choices: [(word: String, value: Value)]) -> ValueParser {
        ValueParser { text throws(OptionValueError) in
            guard let match = choices.first(where: { $0.word == text.lowercased() }) else {
                let words = choices.map(\.word)
                let list = words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
                throw OptionValueError("must be \(list), got '\(text)'")
            }
            return match.value
        }
    }
}
