import HTTP
import JSON
import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

@testable import SIWAServer

/// Issue #11 item 3: over-long parameters get Apple's `invalid_request` and are never stored; the
/// journal keeps long values cut to a prefix, length and fingerprint, and pages its answers.
@Suite struct ParameterLimitTests {
    @Test(arguments: Transport.allCases)
    func overLongAuthorizeAndTokenParametersAreInvalidRequests(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            let nonce = String(repeating: "n", count: 513)
            expectAppleError(
                try h.send(RequestBuilder.authorize(nonce: nonce)), "invalid_request", "Parameter too long: nonce")
            expectAppleError(
                try h.send(RequestBuilder.authorize(state: String(repeating: "s", count: 1025))), "invalid_request",
                "Parameter too long: state")
            // At the cap it is accepted and echoed.
            let atCap = try h.send(RequestBuilder.authorize(nonce: String(repeating: "n", count: 512)))
            #expect(atCap.status == 200, "\(atCap.text)")

            let bigCode = String(repeating: "c", count: 200_000)
            let token = try h.send(
                RequestBuilder.form(
                    "/auth/token",
                    [
                        ("grant_type", "authorization_code"), ("code", bigCode), ("client_id", TestKeys.webClientID),
                        ("client_secret", try h.secret(TestKeys.webClientID)),
                    ]))
            expectAppleError(token, "invalid_request", "Parameter too long: code")
            let secret = try h.send(
                RequestBuilder.form(
                    "/auth/revoke",
                    [
                        ("client_id", TestKeys.webClientID), ("client_secret", String(repeating: "x", count: 4097)),
                        ("token", "t"),
                    ]))
            expectAppleError(secret, "invalid_request", "Parameter too long: client_secret")

            // The control API's native credential refuses a long nonce before anything is stored.
            let credential = try h.call(
                "POST", "/mock/credentials",
                ["client_id": "com.example.app", "user": "alice", "nonce": .string(String(repeating: "n", count: 600))])
            expectControlError(credential, 400, field: "nonce")
            #expect(h.provider.store.counts.codes == 0)
        }
    }

    @Test(arguments: Transport.allCases)
    func journalKeepsLongValuesBoundedAndPages(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            let huge = String(repeating: "z", count: 200_000)
            for _ in 0..<3 {
                _ = try h.send(
                    RequestBuilder.form(
                        "/auth/token", [("grant_type", "refresh_token"), ("state", huge), ("client_id", "c")]))
            }
            let all = try h.send(RequestBuilder.get("/mock/requests", query: [("path", "/auth/token")]))
            #expect(all.body.count < 4096, "three entries with 200 kB values are small: \(all.body.count) bytes")
            let entries = try #require(all.json?["requests"]?.arrayValue)
            #expect(entries.count == 3)
            let state = try #require(entries.first?["parameters"]?["state"]?.stringValue)
            #expect(state.hasPrefix(String(repeating: "z", count: 64) + "…(200000 bytes, sha256:"), "\(state)")

            let page = try h.send(
                RequestBuilder.get("/mock/requests", query: [("path", "/auth/token"), ("limit", "2")]))
            let first = try #require(page.json?["requests"]?.arrayValue)
            #expect(first.count == 2)
            let next = try #require(page.json?["next_after"]?.intValue)
            let rest = try h.send(
                RequestBuilder.get("/mock/requests", query: [("path", "/auth/token"), ("after", String(next))]))
            #expect(rest.json?["requests"]?.arrayValue?.count == 1)
            #expect(rest.json?["next_after"] == nil)
            for bad in ["0", "1001", "-1", "99999999999999999999", "x"] {
                expectControlError(
                    try h.send(RequestBuilder.get("/mock/requests", query: [("limit", bad)])), 400, field: "limit")
            }
        }
    }

    @Test func journalEntriesHaveAByteBound() {
        let journal = RequestJournal(capacity: 10)
        let long = String(repeating: "é", count: 100_000)
        for _ in 0..<20 {
            journal.append(
                JournalEntry(
                    kind: "request", method: long, path: long,
                    parameters: Array(repeating: (long, long), count: 100), clientID: long, user: long,
                    outcome: long, status: 400, timeMilliseconds: 0))
        }
        let entries = journal.entries()
        #expect(entries.count == 10)
        for entry in entries {
            #expect(entry.parameters.count == JournalEntry.maximumParameters)
            #expect(entry.approximateBytes <= JournalEntry.maximumBytes, "\(entry.approximateBytes)")
        }
    }

    @Test(arguments: Transport.allCases)
    func userFaultAndURLStoresRefuseOversizedEntries(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            let long = String(repeating: "a", count: 321)
            expectControlError(
                try h.call("POST", "/mock/users", ["id": "dave", "email": .string(long + "@example.com")]), 400,
                field: "email")
            expectControlError(
                try h.call("PATCH", "/mock/users/alice", ["first_name": .string(long)]), 400, field: "first_name")
            expectControlError(
                try h.call(
                    "PATCH", "/mock/app-groups/com.example.app",
                    ["notification_url": .string("https://example.com/" + String(repeating: "p", count: 1100))]), 400,
                field: "notification_url")
            let bigRule =
                "{\"match\": \"GET /x\", \"status\": 503, \"body\": \"\(String(repeating: "b", count: 17_000))\"}"
            let refused = try h.send(
                HTTPRequest(
                    method: "POST", target: "/mock/faults",
                    headers: HTTPHeaders([("Content-Type", "application/json")]),
                    body: Array(bigRule.utf8)))
            #expect(refused.status == 400, "\(refused.text)")
        }
    }

    @Test func faultEngineHoldsAtMostItsCap() throws {
        let engine = FaultEngine()
        for i in 0..<FaultEngine.maximumRules {
            try engine.add(
                FaultRule(id: "r\(i)", action: FaultAction(delay: DelayRange(minMilliseconds: 1, maxMilliseconds: 1))))
        }
        #expect(throws: ProviderChangeError.self) {
            try engine.add(
                FaultRule(
                    id: "one-more", action: FaultAction(delay: DelayRange(minMilliseconds: 1, maxMilliseconds: 1))))
        }
        #expect(engine.statuses.count == FaultEngine.maximumRules)
    }
}
