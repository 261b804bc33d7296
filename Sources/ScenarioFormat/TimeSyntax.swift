/// The one grammar for time written as text in siwa-mock: scenario files, the control API
/// (`POST /mock/clock`) and the command line (`siwa-mock clock`, `health --wait`) all parse here, so a
/// value accepted in one place is accepted, and means the same, in every other
/// (docs/scenarios.md, "Durations and timestamps").
package enum TimeSyntax {
    /// Why text is not a duration or timestamp; `message` names the text and the expected form.
    package struct Failure: Error, Sendable, Equatable {
        package var message: String

        package init(_ message: String) { self.message = message }
    }

    /// Whether a leading `-` is allowed: only where going back makes sense (moving the mock clock).
    package enum Sign: Sendable {
        case unsigned
        case signed
    }

    static let expectedDuration = "expected a duration like 500ms, 30s, 10m or 2h"

    /// A duration in milliseconds.
    ///
    /// Syntax: one or more `<digits><unit>` parts with units `d`, `h`, `m`, `s`, `ms`, each used at
    /// most once and in that order (`1h30m`, `2m30s`, `1500ms`). No fractions, no spaces. A bare
    /// number is rejected, since its unit would be a guess. With `.signed`, one leading `-` goes back
    /// (`-2d`); with `.unsigned` a negative duration is refused with its own message.
    package static func durationMilliseconds(_ text: String, sign: Sign = .unsigned) throws(Failure) -> Int64 {
        let negative = text.hasPrefix("-")
        let body = negative ? String(text.dropFirst()) : text
        let shown = Node.excerpt(text)
        guard !negative || sign == .signed else {
            if case .success = parseDuration(body) {
                throw Failure("duration '\(shown)' must not be negative (only clock advance goes back)")
            }
            throw Failure("\(expectedDuration), found '\(shown)'")
        }
        switch parseDuration(body) {
        case .success(let milliseconds): return negative ? -milliseconds : milliseconds
        case .failure(.outOfRange):
            throw Failure("duration '\(shown)' is out of range (the longest is 3660000d, 10000 years)")
        case .failure(.missingUnit): throw Failure("\(expectedDuration), found '\(shown)' (add a unit)")
        case .failure(.syntax): throw Failure("\(expectedDuration), found '\(shown)'")
        }
    }

    enum DurationError: Error { case syntax, missingUnit, outOfRange }

    /// The longest duration accepted: 10,000 years. Any time the mock handles (years 0 to 9999, in
    /// milliseconds) plus or minus a duration then stays far inside `Int64`, so no sum can trap.
    package static let maximumDurationMilliseconds: Int64 = 10_000 * 366 * 86_400_000

    static func parseDuration(_ text: String) -> Result<Int64, DurationError> {
        let units: [(name: String, milliseconds: Int64)] = [
            ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1),
        ]
        var rest = Array(text.utf8)[...]
        var total: Int64 = 0
        var nextUnit = 0
        guard !rest.isEmpty else { return .failure(.syntax) }
        while !rest.isEmpty {
            var value: Int64 = 0
            var digitCount = 0
            while let c = rest.first, (0x30...0x39).contains(c) {
                guard digitCount < 15 else { return .failure(.outOfRange) }
                value = value * 10 + Int64(c - 0x30)
                digitCount += 1
                rest = rest.dropFirst()
            }
            guard digitCount > 0 else { return .failure(.syntax) }
            var unitBytes: [UInt8] = []
            while let c = rest.first, (0x61...0x7A).contains(c) {
                unitBytes.append(c)
                rest = rest.dropFirst()
            }
            if unitBytes.isEmpty { return .failure(rest.isEmpty && nextUnit == 0 ? .missingUnit : .syntax) }
            guard let unit = units.indices.first(where: { Array(units[$0].name.utf8) == unitBytes }),
                unit >= nextUnit
            else { return .failure(.syntax) }
            nextUnit = unit + 1
            let (part, o1) = value.multipliedReportingOverflow(by: units[unit].milliseconds)
            let (sum, o2) = total.addingReportingOverflow(part)
            guard !o1, !o2 else { return .failure(.outOfRange) }
            total = sum
        }
        return total <= maximumDurationMilliseconds ? .success(total) : .failure(.outOfRange)
    }
}
