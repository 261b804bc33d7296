import Foundation
import HTTP
import JSON
import SIWACore
import Testing

@testable import siwa_mock

/// JSON Lines request logs: parseable, complete, and never carrying a secret in full.
@Suite struct TLSLogFormatTests {
    @Test func jsonLinesOfAFullCodeFlowParseAndHoldNoSecret() throws {
        let mock = try MockProcess(["--log-format", "json"])
        let flow = ServeTests()
        let authorize = try flow.get(
            mock,
            "/auth/authorize?client_id=com.example.web&redirect_uri=\(URLEncodedForm.encodeComponent(ServeTests.redirect))"
                + "&response_type=code&state=s1&login_hint=alice")
        let location = try #require(authorize.headers["Location"])
        let query = try URLEncodedForm.decode(Array(location.split(separator: "?", maxSplits: 1)[1].utf8))
        let code = try #require(query.first { $0.name == "code" }?.value)
        let secret = try flow.clientSecret()
        let token = try flow.post(
            mock, "/auth/token",
            form: [
                ("grant_type", "authorization_code"), ("client_id", "com.example.web"), ("client_secret", secret),
                ("code", code), ("redirect_uri", ServeTests.redirect),
            ])
        #expect(token.status == 200)
        let reused = try flow.post(
            mock, "/auth/token",
            form: [
                ("grant_type", "authorization_code"), ("client_id", "com.example.web"), ("client_secret", secret),
                ("code", code), ("redirect_uri", ServeTests.redirect),
            ])
        #expect(reused.status == 400)
        let tokens = try JSONValue.parse(token.body)
        #expect(mock.stop() == 0)
        let log = String(decoding: mock.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = log.split(separator: "\n").map(String.init)
        let requests = try lines.map { try JSONValue.parse($0) }.filter { $0["msg"] == .string("request") }
        #expect(requests.count == 3)
        for entry in requests {
            for key in ["time", "level", "request_id", "method", "path", "status", "latency_ms", "client", "scheme"] {
                #expect(entry[key] != nil, "missing \(key) in \(entry)")
            }
        }
        // Lines of one event-loop pass are written together, so lines from two loops can interleave:
        // find each request by what it was, not by its position.
        #expect(requests.contains { $0["path"] == .string("/auth/authorize") })  // no query string
        let redeemed = try #require(
            requests.first { $0["path"] == .string("/auth/token") && $0["status"] == .int(200) })
        let refused = try #require(requests.first { $0["path"] == .string("/auth/token") && $0["status"] == .int(400) })
        #expect(redeemed["method"] == .string("POST"))
        #expect(Set(requests.compactMap { $0["request_id"]?.stringValue }).count == 3)
        // What the pipeline learned reaches the log: client, user, and for a refusal its outcome and reason.
        #expect(redeemed["client_id"] == .string("com.example.web") && redeemed["user"] == .string("alice"))
        #expect(redeemed["outcome"] == nil && redeemed["reason"] == nil)
        #expect(refused["outcome"] == .string("invalid_grant"))
        #expect(refused["reason"]?.stringValue?.isEmpty == false)
        for secretValue in [code, secret, tokens["access_token"]?.stringValue, tokens["id_token"]?.stringValue]
            .compactMap({ $0 })
        {
            #expect(!log.contains(secretValue))
        }
        #expect(!log.contains("login_hint"))
    }

    @Test func responderLogFieldsAreWrittenWithSecretsFingerprinted() throws {
        let log = RequestLog(settings: LogSettings(format: .json, minimumLevel: .info))
        var record = HTTPExchangeRecord(
            method: "POST", target: "/auth/token?x=1", status: 400, durationMicroseconds: 1500,
            remoteAddress: "127.0.0.1:5000", secure: true)
        record.logFields = [
            "client_id": "com.example.web", "code": "c0de-very-secret", "fault": "delay", "user": "alice",
        ]
        let line = try #require(log.line(for: record, requestID: "abc-1", time: "2026-01-01T00:00:00.000Z"))
        let entry = try JSONValue.parse(line)
        #expect(entry["client_id"] == .string("com.example.web"))
        #expect(entry["user"] == .string("alice") && entry["fault"] == .string("delay"))
        #expect(entry["code"] == .string(SecretFingerprint.of("c0de-very-secret")))
        #expect(entry["code"]?.stringValue?.count == "sha256:".count + 12, "the journal's fingerprint: one per secret")
        #expect(!line.contains("c0de-very-secret"))
        #expect(entry["path"] == .string("/auth/token"))
        #expect(entry["latency_ms"] == .double(1.5))
        #expect(entry["scheme"] == .string("https"))
        let text = RequestLog(settings: LogSettings(format: .text, minimumLevel: .info))
        let textLine = try #require(text.line(for: record, requestID: "abc-1", time: "T"))
        #expect(textLine.contains("code=sha256:") && !textLine.contains("c0de-very-secret"))
        record.logFields["reason"] = #"code was issued for redirect_uri "https://a""#
        let quoted = try #require(text.line(for: record, requestID: "abc-1", time: "T"))
        #expect(quoted.hasSuffix(#" reason="code was issued for redirect_uri \"https://a\"" user=alice"#))
    }

    @Test func logLevelFiltersRequests() throws {
        let quiet = RequestLog(settings: LogSettings(format: .json, minimumLevel: .warn))
        let ok = HTTPExchangeRecord(
            method: "GET", target: "/", status: 200, durationMicroseconds: 1, remoteAddress: "a")
        let failed = HTTPExchangeRecord(
            method: "GET", target: "/", status: 500, durationMicroseconds: 1, remoteAddress: "a")
        #expect(quiet.line(for: ok, requestID: "1", time: "t") == nil)
        #expect(quiet.line(for: failed, requestID: "2", time: "t") != nil)
    }
}
