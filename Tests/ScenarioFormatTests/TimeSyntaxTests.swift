import Testing

@testable import ScenarioFormat

/// The one time grammar (issue #9): each case below used to mean different things in scenario
/// files, the control API and the CLI; now each has one answer, read through `TimeSyntax`.
@Suite struct TimeSyntaxTests {
    func duration(_ text: String, _ sign: TimeSyntax.Sign = .unsigned) -> Result<Int64, TimeSyntax.Failure> {
        Result { () throws(TimeSyntax.Failure) in try TimeSyntax.durationMilliseconds(text, sign: sign) }
    }

    func timestamp(_ text: String) -> Result<ScenarioTimestamp, TimeSyntax.Failure> {
        Result { () throws(TimeSyntax.Failure) in try TimeSyntax.timestamp(text) }
    }

    @Test func bareNumbersNeedAUnitEverywhere() {
        let expected = "expected a duration like 500ms, 30s, 10m or 2h, found '90' (add a unit)"
        #expect(duration("90") == .failure(TimeSyntax.Failure(expected)))
        #expect(duration("90", .signed) == .failure(TimeSyntax.Failure(expected)))
        #expect(
            duration("-90", .signed)
                == .failure(
                    TimeSyntax.Failure("expected a duration like 500ms, 30s, 10m or 2h, found '-90' (add a unit)")))
    }

    @Test func combinedUnitsParseEverywhere() {
        #expect(duration("1h30m") == .success(5_400_000))
        #expect(duration("1h30m", .signed) == .success(5_400_000))
        #expect(duration("1d2h3m4s5ms") == .success(93_784_005))
    }

    /// `durationText` writes what `durationMilliseconds` reads back (the mailbox's "no mail … in 1m30s").
    @Test(arguments: [
        (Int64(0), "0s"), (300, "300ms"), (1000, "1s"), (1500, "1s500ms"), (90_000, "1m30s"),
        (3_600_000, "1h"), (93_784_005, "1d2h3m4s5ms"), (-172_800_000, "-2d"),
    ])
    func durationTextRoundTrips(_ milliseconds: Int64, _ text: String) {
        #expect(TimeSyntax.durationText(milliseconds: milliseconds) == text)
        #expect(duration(text, .signed) == .success(milliseconds))
    }

    @Test func negativeDurationsOnlyWhereSigned() {
        #expect(duration("-2d", .signed) == .success(-172_800_000))
        #expect(duration("-1h30m", .signed) == .success(-5_400_000))
        #expect(
            duration("-2d")
                == .failure(TimeSyntax.Failure("duration '-2d' must not be negative (only clock advance goes back)")))
        #expect(
            duration("--2d", .signed)
                == .failure(
                    TimeSyntax.Failure(
                        "expected a duration like 500ms, 30s, 10m or 2h, found '--2d'")))
        #expect(duration("+2d", .signed).isFailure)
        #expect(duration("-", .signed).isFailure)
    }

    @Test func outOfRangeNeverOverflows() {
        #expect(
            duration("999999999999999d")
                == .failure(
                    TimeSyntax.Failure(
                        "duration '999999999999999d' is out of range (the longest is 3660000d, 10000 years)")))
        #expect(duration("-999999999999999d", .signed).isFailure)
        #expect(duration("1y").isFailure)
    }

    @Test func timestampsNeedUppercaseTAndZ() {
        #expect(timestamp("2030-01-01T00:00:00Z") == .success(ScenarioTimestamp(secondsSinceEpoch: 1_893_456_000)))
        #expect(
            timestamp("2030-01-01t00:00:00z")
                == .failure(
                    TimeSyntax.Failure(
                        "expected an RFC 3339 timestamp like 2026-01-02T03:04:05Z, found '2030-01-01t00:00:00z'"
                            + " (write T and Z in uppercase)")))
    }

    @Test func leapSecondsAreRefused() {
        #expect(
            timestamp("2016-12-31T23:59:60Z")
                == .failure(TimeSyntax.Failure("invalid timestamp '2016-12-31T23:59:60Z': second is out of range")))
    }

    @Test func millisecondsTruncateTheFraction() throws {
        #expect(try TimeSyntax.timestamp("2030-01-01T01:00:00.5+01:00").millisecondsSinceEpoch == 1_893_456_000_500)
        #expect(try TimeSyntax.timestamp("2030-01-01T00:00:00.123456789Z").millisecondsSinceEpoch == 1_893_456_000_123)
        #expect(try TimeSyntax.timestamp("1969-12-31T23:59:59.5Z").millisecondsSinceEpoch == -500)
    }
}

extension Result {
    fileprivate var isFailure: Bool { if case .failure = self { true } else { false } }
}
