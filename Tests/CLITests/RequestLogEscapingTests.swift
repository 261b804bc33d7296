import HTTP
import JSON
import SIWAServer
import Testing

@testable import siwa_mock

/// Text log lines end only where the logger ends them: control characters from scenarios (reload
/// errors) or requests (form fields) are escaped, so they cannot forge another entry.
@Suite struct RequestLogEscapingTests {
    let forged = "x\n2026-01-01T00:00:00.000Z 127.0.0.1:1 POST /auth/token 200 1us id=forged"

    @Test func controlCharactersAreEscaped() {
        #expect(RequestLog.escaped("plain text, ünïcode ✓") == "plain text, ünïcode ✓")
        #expect(RequestLog.escaped("a\nb\rc\td") == #"a\nb\rc\td"#)
        #expect(RequestLog.escaped("\u{1B}[31mred\u{7F}\u{85}\u{2028}") == #"\u{1B}[31mred\u{7F}\u{85}\u{2028}"#)
    }

    @Test func scenarioDiagnosticsCannotForgeALine() {
        let log = RequestLog(settings: LogSettings(format: .text, minimumLevel: .info))
        let text = log.noteText(
            "scenario reload failed, keeping the previous scenario:", level: .info, fields: [],
            details: ["s.yaml:2:1: unknown key '\(forged)'", "s.yaml:3:1: second"], time: "T")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3, "one line for the note and one per diagnostic: \(lines)")
        #expect(
            lines[1]
                == #"s.yaml:2:1: unknown key 'x\n2026-01-01T00:00:00.000Z 127.0.0.1:1 POST /auth/token 200 1us id=forged'"#
        )
        #expect(!lines.contains { $0.hasPrefix("2026-") })
        let json = RequestLog(settings: LogSettings(format: .json, minimumLevel: .info))
        let entry = try? JSONValue.parse(
            Array(json.noteText("m", level: .info, fields: [], details: [forged], time: "T").utf8))
        #expect(entry?["details"] == .array([.string(forged)]))
    }

    /// The 503 a `health --wait` poll gets while the mock starts is not an error at `--log-level warn`.
    @Test func startingAnswerIsDebugAndOtherServerErrorsAreErrors() {
        let response = LateBoundResponder().respond(to: HTTPRequest(method: .get, target: "/mock/health"))
        var record = HTTPExchangeRecord(
            method: "GET", target: "/mock/health", status: response.status, durationMicroseconds: 1,
            remoteAddress: "127.0.0.1:1", logFields: response.logFields)
        #expect(response.status.code == 503 && RequestLog.level(of: record) == .debug)
        record.logFields = [:]
        #expect(RequestLog.level(of: record) == .error, "a 503 of a running mock (store down) stays an error")
    }

    @Test func requestFieldsCannotForgeALine() throws {
        let log = RequestLog(settings: LogSettings(format: .text, minimumLevel: .info))
        var record = HTTPExchangeRecord(
            method: "POST", target: "/auth/token", status: 400, durationMicroseconds: 1, remoteAddress: "127.0.0.1:1")
        record.logFields = ["client_id": forged]
        let line = try #require(log.line(for: record, requestID: "1", time: "T"))
        #expect(!line.contains("\n"))
        #expect(
            line.hasSuffix(#"client_id="x\n2026-01-01T00:00:00.000Z 127.0.0.1:1 POST /auth/token 200 1us id=forged""#))
    }
}
