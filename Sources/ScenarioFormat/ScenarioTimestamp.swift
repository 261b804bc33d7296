/// An instant read from an RFC 3339 timestamp, as seconds and nanoseconds since 1970-01-01T00:00:00Z.
package struct ScenarioTimestamp: Sendable, Hashable, Comparable {
    /// Whole seconds since the Unix epoch (negative before 1970).
    package var secondsSinceEpoch: Int64
    /// The fraction of a second, 0 ..< 1_000_000_000.
    package var nanoseconds: Int32

    package init(secondsSinceEpoch: Int64, nanoseconds: Int32 = 0) {
        self.secondsSinceEpoch = secondsSinceEpoch
        self.nanoseconds = nanoseconds
    }

    /// Milliseconds since the epoch, the fraction truncated (the mock clock's unit).
    package var millisecondsSinceEpoch: Int64 { secondsSinceEpoch * 1000 + Int64(nanoseconds / 1_000_000) }

    package static func < (lhs: ScenarioTimestamp, rhs: ScenarioTimestamp) -> Bool {
        (lhs.secondsSinceEpoch, lhs.nanoseconds) < (rhs.secondsSinceEpoch, rhs.nanoseconds)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
