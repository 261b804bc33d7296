/// RFC 3339 timestamps: `2026-01-02T03:04:05Z`, `2026-01-02T03:04:05.250+02:00`.
extension TimeSyntax {
    static let expectedTimestamp = "expected an RFC 3339 timestamp like 2026-01-02T03:04:05Z"

    /// Reads an RFC 3339 `date-time` (RFC 3339 §5.6): uppercase `T` and `Z`, seconds required, 1–9
    /// fraction digits, offset `Z` or `±HH:MM`. Leap seconds (`:60`) are rejected.
    package static func timestamp(_ text: String) throws(Failure) -> ScenarioTimestamp {
        let shown = Node.excerpt(text)
        switch parseTimestamp(Array(text.utf8)) {
        case .success(let timestamp):
            return timestamp
        case .failure(.syntax):
            // `t`/`z` are legal in RFC 3339 §5.6's note but not here: say so rather than only "expected".
            if case .success = parseTimestamp(Array(text.uppercased().utf8)) {
                throw Failure("\(expectedTimestamp), found '\(shown)' (write T and Z in uppercase)")
            }
            throw Failure("\(expectedTimestamp), found '\(shown)'")
        case .failure(.range(let field)):
            throw Failure("invalid timestamp '\(shown)': \(field) is out of range")
        }
    }

    enum TimestampError: Error {
        case syntax
        case range(String)
    }

    static func parseTimestamp(_ b: [UInt8]) -> Result<ScenarioTimestamp, TimestampError> {
        var i = 0
        func number(_ count: Int) -> Int64? {
            guard i + count <= b.count else { return nil }
            var value: Int64 = 0
            for j in i..<(i + count) {
                guard (0x30...0x39).contains(b[j]) else { return nil }
                value = value * 10 + Int64(b[j] - 0x30)
            }
            i += count
            return value
        }
        func literal(_ c: Character) -> Bool {
            guard i < b.count, b[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let year = number(4), literal("-"), let month = number(2), literal("-"), let day = number(2),
            literal("T"), let hour = number(2), literal(":"), let minute = number(2), literal(":"),
            let second = number(2)
        else { return .failure(.syntax) }
        var nanos: Int64 = 0
        if literal(".") {
            var digits = 0
            while i < b.count, (0x30...0x39).contains(b[i]) {
                guard digits < 9 else { return .failure(.syntax) }
                nanos = nanos * 10 + Int64(b[i] - 0x30)
                digits += 1
                i += 1
            }
            guard digits > 0 else { return .failure(.syntax) }
            for _ in digits..<9 { nanos *= 10 }
        }
        var offset: Int64 = 0
        if !literal("Z") {
            let sign: Int64 = literal("+") ? 1 : literal("-") ? -1 : 0
            guard sign != 0, let oh = number(2), literal(":"), let om = number(2) else { return .failure(.syntax) }
            guard oh <= 23 else { return .failure(.range("offset hour")) }
            guard om <= 59 else { return .failure(.range("offset minute")) }
            offset = sign * (oh * 3600 + om * 60)
        }
        guard i == b.count else { return .failure(.syntax) }
        guard (1...12).contains(month) else { return .failure(.range("month")) }
        guard day >= 1, day <= ScenarioTimestamp.daysInMonth(year: year, month: month) else {
            return .failure(.range("day"))
        }
        guard hour <= 23 else { return .failure(.range("hour")) }
        guard minute <= 59 else { return .failure(.range("minute")) }
        guard second <= 59 else { return .failure(.range("second")) }
        let days = ScenarioTimestamp.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return .success(ScenarioTimestamp(secondsSinceEpoch: seconds, nanoseconds: Int32(nanos)))
    }
}
