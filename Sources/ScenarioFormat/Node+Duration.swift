/// Durations: `500ms`, `30s`, `10m`, `2h`, `1d`, and combinations in decreasing order such as `1h30m`.
extension Node {
    /// The duration as a Swift `Duration`. See ``durationMilliseconds()`` for the accepted syntax.
    public func duration() throws(ScenarioDiagnostic) -> Duration {
        .milliseconds(try durationMilliseconds())
    }

    /// The duration in milliseconds.
    ///
    /// Syntax: one or more `<digits><unit>` parts with units `d`, `h`, `m`, `s`, `ms`, each used at
    /// most once and in that order (`1h30m`, `2m30s`, `1500ms`). No sign, no fractions, no spaces. A bare
    /// number is rejected, since its unit would be a guess. Quoted text is accepted (for JSON).
    public func durationMilliseconds() throws(ScenarioDiagnostic) -> Int64 {
        guard case .scalar(let text, _) = kind else {
            throw diagnostic("expected a duration like 500ms, 30s, 10m or 2h, found \(kindDescription)")
        }
        switch Node.parseDuration(text) {
        case .success(let milliseconds):
            return milliseconds
        case .failure(.outOfRange):
            throw diagnostic("duration '\(Node.excerpt(text))' is out of range (the longest is 3660000d, 10000 years)")
        case .failure(.missingUnit):
            throw diagnostic(
                "expected a duration like 500ms, 30s, 10m or 2h, found '\(Node.excerpt(text))' (add a unit)")
        case .failure(.syntax):
            throw diagnostic("expected a duration like 500ms, 30s, 10m or 2h, found '\(Node.excerpt(text))'")
        }
    }

    enum DurationError: Error { case syntax, missingUnit, outOfRange }

    /// The longest duration accepted: 10,000 years. Any time the mock handles (years 0 to 9999, in
    /// milliseconds) plus or minus a duration then stays far inside `Int64`, so no sum can trap.
    public static let maximumDurationMilliseconds: Int64 = 10_000 * 366 * 86_400_000

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
