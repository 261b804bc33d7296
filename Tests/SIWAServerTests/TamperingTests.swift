import HTTP
import JOSE
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import ScenarioModel
import Testing

/// The hostile Apple through the server (docs/rp-check.md): a `tamper:` fault rule breaks the matching
/// answer's id_token (token endpoint, authorize, native credential) or a notification, journaled with
/// its case; nothing else does.
@Suite struct TamperingTests {
    static func tamperOf(_ h: ControlHarness, path: String) throws -> [String?] {
        let journal = try h.send(RequestBuilder.get("/mock/requests", query: [("path", path)]))
        return journal.json?["requests"]?.arrayValue?.map { $0["parameters"]?["tamper"]?.stringValue } ?? []
    }

    @Test(arguments: Transport.allCases)
    func tokenEndpointAnswersTheCaseOnceAndTheJournalNamesIt(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            let rule: JSONValue = [
                "id": "hostile", "match": "POST /auth/token", "times": 1, "tamper": "oidcc-client-test-invalid-aud",
            ]
            #expect(try h.call("POST", "/mock/faults", rule).status == 201)
            for round in 0..<2 {
                let response = try h.send(
                    RequestBuilder.authorize(extra: [("login_hint", "alice")]))
                let form = try #require(HTMLForm.parse(response.text)).inputs
                let authorizeToken = try #require(form.first { $0.name == "id_token" }?.value)
                #expect(
                    try h.verifiedClaims(authorizeToken)["aud"] == .string(TestKeys.webClientID), "authorize untouched")
                let code = try #require(form.first { $0.name == "code" }?.value)
                let token = try h.send(
                    RequestBuilder.form(
                        "/auth/token",
                        [
                            ("grant_type", "authorization_code"), ("code", code), ("client_id", TestKeys.webClientID),
                            ("client_secret", try h.secret(TestKeys.webClientID)),
                            ("redirect_uri", TestKeys.redirectURI),
                        ]))
                #expect(token.status == 200)
                let claims = try h.verifiedClaims(try #require(token.json?["id_token"]?.stringValue))
                #expect(claims["aud"] == .string(round == 0 ? "com.example.another-team.app" : TestKeys.webClientID))
            }
            #expect(
                try Self.tamperOf(h, path: "/auth/token") == ["oidcc-client-test-invalid-aud", nil], "oldest first")
            #expect(try Self.tamperOf(h, path: "/auth/authorize") == [nil, nil])
        }
    }

    @Test func hybridAuthorizeTokenIsTamperedAndKeysAreNot() throws {
        try ControlHarness.run(.inProcess) { h in
            let rule: JSONValue = ["tamper": "oidcc-client-test-nonce-invalid", "times": 2]
            #expect(try h.call("POST", "/mock/faults", rule).status == 201)
            #expect(try h.send(RequestBuilder.get("/auth/keys")).status == 200)
            let form = try #require(
                HTMLForm.parse(try h.send(RequestBuilder.authorize(extra: [("login_hint", "alice")])).text)
            ).inputs
            let claims = try h.verifiedClaims(try #require(form.first { $0.name == "id_token" }?.value))
            #expect(claims["nonce"] == .string("n-456-not-yours"))
            let faults = try h.call("GET", "/mock/faults").json?["faults"]?[0]
            #expect(faults?["fired"] == .int(1), "/auth/keys carries no id_token: the rule did not fire there")
            #expect(faults?["action"] == .string("tamper oidcc-client-test-nonce-invalid"))
        }
    }

    @Test func nativeCredentialIsTamperedOnlyForTheRulesClient() throws {
        try ControlHarness.run(.inProcess) { h in
            let rule: JSONValue = ["tamper": "oidcc-client-test-missing-sub", "client": "com.example.app"]
            #expect(try h.call("POST", "/mock/faults", rule).status == 201)
            let credential = try h.call("POST", "/mock/credentials", ["client_id": "com.example.app", "user": "bob"])
            let token = try #require(credential.json?["identityToken"]?.stringValue)
            let claims = try h.verifiedClaims(token)
            #expect(claims["sub"] == nil && claims["aud"] == .string("com.example.app"))
            #expect(try Self.tamperOf(h, path: "/mock/credentials") == ["oidcc-client-test-missing-sub"])
        }
    }

    @Test func ordinaryFaultsNeverReachCredentialsOrNotifications() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        try NotificationTests.run(.inProcess, scenario: NotificationTests.scenario(url: receiver.url)) {
            (h, scheduler, _) throws in
            // Matches every request naming the app, as a credential or notification for it would be.
            #expect(try h.call("POST", "/mock/faults", ["status": 503, "client": "com.example.app"]).status == 201)
            let credential = try h.call("POST", "/mock/credentials", ["client_id": "com.example.app", "user": "bob"])
            #expect(credential.status == 200)
            _ = try h.verifiedClaims(try #require(credential.json?["identityToken"]?.stringValue))
            #expect(
                try h.call("POST", "/mock/notifications", ["type": "consent-revoked", "user": "bob"]).status == 202)
            #expect(scheduler.waitUntilIdle())
            #expect(receiver.payloads.count == 1)
            #expect(try h.call("GET", "/mock/faults").json?["faults"]?[0]?["fired"] == .int(0))
        }
    }

    @Test func notificationRuleBreaksTheNotificationAndIsJournaled() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        try NotificationTests.run(.inProcess, scenario: NotificationTests.scenario(url: receiver.url)) {
            (h, scheduler, _) throws in
            let rule: JSONValue = ["tamper": "siwa-notification-invalid-aud", "times": 1]
            #expect(try h.call("POST", "/mock/faults", rule).status == 201)
            var queuedAudiences: [String?] = []
            for _ in 0..<2 {
                let queued = try h.call("POST", "/mock/notifications", ["type": "consent-revoked", "user": "bob"])
                #expect(queued.status == 202)
                queuedAudiences.append(queued.json?["queued"]?[0]?["aud"]?.stringValue)
                #expect(scheduler.waitUntilIdle())
            }
            #expect(
                queuedAudiences == ["com.example.another-team.app", "com.example.app"], "the answer shows what was sent"
            )
            let audiences = try receiver.payloads.map { try h.verifiedClaims($0)["aud"]?.stringValue }
            #expect(audiences == ["com.example.another-team.app", "com.example.app"])
            let journal = try h.send(RequestBuilder.get("/mock/requests", query: [("user", "bob")]))
            let tampers = journal.json?["requests"]?.arrayValue?.filter { $0["kind"] == .string("notification") }
                .map { $0["parameters"]?["tamper"]?.stringValue }
            #expect(tampers == ["siwa-notification-invalid-aud", nil])
        }
    }

    @Test func rulesThatCannotTamperAreRefusedWithAReason() throws {
        try ControlHarness.run(.inProcess) { h in
            let cases: [(JSONValue, String)] = [
                (["tamper": "oidcc-client-test-invalid-ad"], "did you mean 'oidcc-client-test-invalid-aud'?"),
                (["tamper": "siwa-expired", "status": 500], "drop 'status'"),
                (["tamper": "siwa-expired", "match": "GET /auth/keys"], "issues no id_token"),
                (["tamper": "siwa-notification-invalid-sig", "match": "POST /auth/token"], "drop 'match'"),
            ]
            for (rule, message) in cases {
                let response = try h.call("POST", "/mock/faults", rule)
                #expect(response.status == 400 && response.text.contains(message), "\(rule): \(response.text)")
            }
        }
    }
}
