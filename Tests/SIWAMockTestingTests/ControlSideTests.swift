import Foundation
import SIWAMockTesting
import Testing

/// The control API as Swift methods: clock, keys, faults and the journal, seen by a backend over HTTP.
@Suite struct ControlSideTests {
    func redeem(_ apple: AppleIDMock, _ credential: AppleIDCredential) async throws -> HTTPForm.Answer {
        try await HTTPForm.post(
            apple.endpoints.token,
            [
                ("grant_type", "authorization_code"), ("code", credential.authorizationCodeString),
                ("client_id", "com.example.app"), ("client_secret", try apple.clientSecret(client: "com.example.app")),
            ])
    }

    @Test func advancingTheClockExpiresCodesAndTokens() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        apple.freezeClock()
        #expect(apple.isClockFrozen)
        let start = apple.now
        let credential = try apple.authorize(user: "alice", client: "com.example.app")
        apple.advanceClock(by: .seconds(301))
        #expect(apple.now.timeIntervalSince(start) == 301)
        let answer = try await redeem(apple, credential)
        #expect(answer.status == 400 && answer.json["error"] as? String == "invalid_grant")
        let refusal = try #require(apple.refusals.last)
        #expect(refusal.path == "/auth/token" && refusal.outcome == "invalid_grant" && refusal.reason != nil)

        apple.advanceClock(by: .seconds(86_400))
        let expired = #expect(throws: AppleIDMockError.self) {
            try apple.verify(idToken: credential.identityToken, audience: "com.example.app")
        }
        #expect(expired?.kind == .invalidToken && expired?.message.contains("expired at") == true)
        apple.setClock(to: start)
        #expect(try apple.verify(idToken: credential.identityToken, audience: "com.example.app").subject != "")
    }

    @Test func rotatedKeysSignAndRetiredKeysStopVerifying() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let old = try apple.authorize(user: "alice", client: "com.example.app")
        let oldKid = try apple.verify(idToken: old.identityToken, audience: "com.example.app").keyID
        let kid = try await apple.rotateSigningKey()
        #expect(apple.signingKeys.first { $0.signs }?.id == kid)
        let fresh = try apple.authorize(user: "alice", client: "com.example.app")
        #expect(try apple.verify(idToken: fresh.identityToken, audience: "com.example.app").keyID == kid)
        let keys = try await HTTPForm.get(apple.endpoints.keys)
        let kids = (keys.json["keys"] as? [[String: Any]])?.compactMap { $0["kid"] as? String } ?? []
        #expect(kids.contains(kid) && kids.contains(oldKid))

        try apple.retireKey(oldKid)
        let retired = #expect(throws: AppleIDMockError.self) {
            try apple.verify(idToken: old.identityToken, audience: "com.example.app")
        }
        #expect(retired?.message == "no key in the JWKS for kid \(oldKid)")
        let signing = #expect(throws: AppleIDMockError.self) { try apple.retireKey(kid) }
        #expect(signing?.kind == .conflict)
    }

    @Test func faultsAnswerTheBackendAndCountWhatFired() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let id = try apple.addFault("{id: token-503, match: /auth/token, times: 1, status: 503}")
        #expect(id == "token-503")
        let credential = try apple.authorize(user: "alice", client: "com.example.app")
        #expect(try await redeem(apple, credential).status == 503)
        #expect(try await redeem(apple, credential).status == 200)
        #expect(apple.faults.map(\.id) == ["token-503"] && apple.faults.map(\.fired) == [1])
        let bad = #expect(throws: AppleIDMockError.self) { try apple.addFault("{match: /auth/token}") }
        #expect(bad?.kind == .invalid && bad?.message.hasPrefix("body:1:1: a fault needs 'status'") == true)
        try apple.removeFault(id)
        #expect(apple.faults.isEmpty)
    }

    /// The hostile Apple from a Swift test (docs/rp-check.md): a `tamper:` rule breaks the next credential.
    @Test func tamperRuleBreaksTheNextIdentityTokenOnly() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        try apple.addFault("{tamper: oidcc-client-test-missing-sub, times: 1, client: com.example.app}")
        let claims = { (credential: AppleIDCredential) throws -> [String: Any] in
            var part = String(credential.identityTokenString.split(separator: ".")[1])
                .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while part.count % 4 != 0 { part += "=" }
            let data = try #require(Data(base64Encoded: part))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let tampered = try claims(try apple.authorize(user: "alice", client: "com.example.app"))
        #expect(tampered["sub"] == nil && tampered["aud"] as? String == "com.example.app")
        let valid = try claims(try apple.authorize(user: "alice", client: "com.example.app"))
        #expect(valid["sub"] is String)
        #expect(apple.faults.map(\.fired) == [1])
    }

    @Test func scenarioTextAndFilesLoadWithPositionedErrors() async throws {
        let bad = await #expect(throws: AppleIDMockError.self) {
            _ = try await AppleIDMock.start(scenario: .text("users:\n  - id: dave\n    emial: d@example.com\n"))
        }
        #expect(bad?.kind == .scenario && bad?.message.contains("scenario:3:5:") == true)
        #expect(bad?.message.contains("did you mean 'email'") == true)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("dave.yaml")
        try "users:\n  - id: dave\n    email: dave@example.com\n".write(to: file, atomically: true, encoding: .utf8)
        let apple = try await AppleIDMock.start(scenario: .file(file.path))
        defer { apple.shutdown() }
        #expect(apple.users.map(\.id) == ["dave"])
        #expect(try apple.authorize(user: "dave", client: "com.example.app").email == "dave@example.com")
    }

    @Test func resetForgetsCodesAndTheJournal() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let credential = try apple.authorize(user: "alice", client: "com.example.app")
        _ = try await HTTPForm.get(apple.endpoints.keys)
        #expect(!apple.requests().isEmpty)
        apple.reset()
        #expect(apple.requests().isEmpty)
        #expect(try await redeem(apple, credential).status == 400)
    }
}
