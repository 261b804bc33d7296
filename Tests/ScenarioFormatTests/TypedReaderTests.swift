import ScenarioFormat
import Testing

/// The typed readers used by the second stage, with their exact diagnostics.
struct TypedReaderTests {
    /// The value of `v:` in a one-line document.
    func value(_ text: String) throws -> Node {
        try root("v: " + text).mapping().required("v")
    }

    func message(_ body: (Node) throws -> Any, _ text: String) -> String {
        do {
            _ = try body(try value(text))
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test func readsIntegers() throws {
        #expect(try value("42").int() == 42)
        #expect(try value("-7").int() == -7)
        #expect(try value("+3").int() == 3)
        #expect(try value("-9223372036854775808").int() == Int64.min)
        #expect(try value("9223372036854775807").int() == Int64.max)
        #expect(
            message({ try $0.int() }, "9223372036854775808")
                == "t.yaml:1:4: integer '9223372036854775808' is out of range")
        #expect(message({ try $0.int() }, "12abc") == "t.yaml:1:4: expected an integer, found '12abc'")
        #expect(
            message({ try $0.int() }, "\"42\"")
                == "t.yaml:1:4: expected an integer, found the quoted string '42' (remove the quotes)")
        #expect(message({ try $0.int() }, "[1]") == "t.yaml:1:4: expected an integer, found a sequence")
        #expect(message({ try $0.int() }, String(repeating: "9", count: 500)).hasSuffix("is out of range"))
    }

    @Test func readsOnlyLowercaseTrueAndFalse() throws {
        #expect(try value("true").bool() == true)
        #expect(try value("false").bool() == false)
        #expect(
            message({ try $0.bool() }, "yes")
                == "t.yaml:1:4: expected true or false, found 'yes' (YAML 1.2 booleans are only true and false)")
        #expect(
            message({ try $0.bool() }, "off")
                == "t.yaml:1:4: expected true or false, found 'off' (YAML 1.2 booleans are only true and false)")
        #expect(
            message({ try $0.bool() }, "True")
                == "t.yaml:1:4: expected true or false, found 'True' (booleans are lowercase)")
        #expect(message({ try $0.bool() }, "1") == "t.yaml:1:4: expected true or false, found '1'")
        #expect(try value("yes").string() == "yes")
    }

    @Test func readsFiniteDecimalNumbers() throws {
        #expect(try value("0.25").double() == 0.25)
        #expect(try value("1").double() == 1)
        #expect(try value("-1.5e3").double() == -1500)
        #expect(try value(".5").double() == 0.5)
        #expect(message({ try $0.double() }, ".inf") == "t.yaml:1:4: expected a number, found '.inf'")
        #expect(message({ try $0.double() }, "nan") == "t.yaml:1:4: expected a number, found 'nan'")
        #expect(message({ try $0.double() }, "0x1p3") == "t.yaml:1:4: expected a number, found '0x1p3'")
        #expect(message({ try $0.double() }, "1e400") == "t.yaml:1:4: number '1e400' is out of range")
    }

    @Test func readsDurations() throws {
        #expect(try value("500ms").durationMilliseconds() == 500)
        #expect(try value("30s").durationMilliseconds() == 30_000)
        #expect(try value("10m").durationMilliseconds() == 600_000)
        #expect(try value("2h").durationMilliseconds() == 7_200_000)
        #expect(try value("1d").durationMilliseconds() == 86_400_000)
        #expect(try value("1h30m").durationMilliseconds() == 5_400_000)
        #expect(try value("0s").durationMilliseconds() == 0)
        #expect(try value("'90s'").duration() == .seconds(90))
        let expected = "expected a duration like 500ms, 30s, 10m or 2h"
        #expect(message({ try $0.duration() }, "soon") == "t.yaml:1:4: \(expected), found 'soon'")
        #expect(message({ try $0.duration() }, "3600") == "t.yaml:1:4: \(expected), found '3600' (add a unit)")
        #expect(message({ try $0.duration() }, "30m1h") == "t.yaml:1:4: \(expected), found '30m1h'")
        #expect(message({ try $0.duration() }, "1.5h") == "t.yaml:1:4: \(expected), found '1.5h'")
        #expect(
            message({ try $0.duration() }, "-5s")
                == "t.yaml:1:4: duration '-5s' must not be negative (only clock advance goes back)")
        #expect(message({ try $0.duration() }, "5 s") == "t.yaml:1:4: \(expected), found '5 s'")
        #expect(
            message({ try $0.duration() }, "99999999999999d")
                == "t.yaml:1:4: duration '99999999999999d' is out of range (the longest is 3660000d, 10000 years)")
        // Below Int64's limit but beyond 10,000 years: refused, so `now + duration` can never trap.
        #expect(
            message({ try $0.duration() }, "106751991167d").hasSuffix(
                "is out of range (the longest is 3660000d, 10000 years)"))
        #expect(try value("3660000d").durationMilliseconds() == 3_660_000 * 86_400_000)
        #expect(message({ try $0.duration() }, "{}") == "t.yaml:1:4: \(expected), found a mapping")
    }

    @Test func readsRFC3339Timestamps() throws {
        #expect(try value("2026-01-02T03:04:05Z").timestamp() == ScenarioTimestamp(secondsSinceEpoch: 1_767_323_045))
        #expect(try value("1970-01-01T00:00:00Z").timestamp() == ScenarioTimestamp(secondsSinceEpoch: 0))
        #expect(
            try value("1969-12-31T23:59:59.5Z").timestamp()
                == ScenarioTimestamp(secondsSinceEpoch: -1, nanoseconds: 500_000_000))
        #expect(
            try value("2026-01-02T05:04:05.123456789+02:00").timestamp()
                == ScenarioTimestamp(secondsSinceEpoch: 1_767_323_045, nanoseconds: 123_456_789))
        #expect(
            try value("2026-01-01T22:34:05-04:30").timestamp() == ScenarioTimestamp(secondsSinceEpoch: 1_767_323_045))
        #expect(try value("2024-02-29T00:00:00Z").timestamp().secondsSinceEpoch == 1_709_164_800)
        #expect(try value("\"2000-03-01T00:00:00Z\"").timestamp().secondsSinceEpoch == 951_868_800)
        let expected = "expected an RFC 3339 timestamp like 2026-01-02T03:04:05Z"
        #expect(message({ try $0.timestamp() }, "2026-01-02") == "t.yaml:1:4: \(expected), found '2026-01-02'")
        #expect(
            message({ try $0.timestamp() }, "2026-01-02 03:04:05Z")
                == "t.yaml:1:4: \(expected), found '2026-01-02 03:04:05Z'")
        #expect(
            message({ try $0.timestamp() }, "2026-01-02T03:04:05")
                == "t.yaml:1:4: \(expected), found '2026-01-02T03:04:05'")
        #expect(
            message({ try $0.timestamp() }, "2026-01-02T03:04:05.1234567891Z")
                == "t.yaml:1:4: \(expected), found '2026-01-02T03:04:05.1234567891Z'")
        #expect(
            message({ try $0.timestamp() }, "2025-02-29T00:00:00Z")
                == "t.yaml:1:4: invalid timestamp '2025-02-29T00:00:00Z': day is out of range")
        #expect(
            message({ try $0.timestamp() }, "2026-13-01T00:00:00Z")
                == "t.yaml:1:4: invalid timestamp '2026-13-01T00:00:00Z': month is out of range")
        #expect(
            message({ try $0.timestamp() }, "2026-01-01T23:59:60Z")
                == "t.yaml:1:4: invalid timestamp '2026-01-01T23:59:60Z': second is out of range")
        #expect(
            message({ try $0.timestamp() }, "2026-01-01T00:00:00+24:00")
                == "t.yaml:1:4: invalid timestamp '2026-01-01T00:00:00+24:00': offset hour is out of range")
    }

    @Test func stringAndCollectionReaders() throws {
        #expect(try value("'a b'").string() == "a b")
        #expect(message({ try $0.string() }, "[a]") == "t.yaml:1:4: expected a string, found a sequence")
        #expect(message({ try $0.sequence() }, "x") == "t.yaml:1:4: expected a sequence, found a scalar")
        #expect(message({ try $0.mapping() }, "[x]") == "t.yaml:1:4: expected a mapping, found a sequence")
        #expect(try value("null").isNull)
        #expect(try value("~").isNull)
        #expect(try !value("'null'").isNull)
    }

    @Test func requiredKeyReportsTheMapping() throws {
        let reader = try root("\n  team: x").mapping()
        #expect(throws: ScenarioDiagnostic(file: "t.yaml", line: 2, column: 3, message: "missing required key 'users'"))
        {
            try reader.required("users")
        }
        #expect(reader.optional("users") == nil)
        #expect(try reader.optional("team")?.string() == "x")
    }
}
