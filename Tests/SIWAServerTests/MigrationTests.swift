import HTTP
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import ScenarioModel
import Testing

@Suite struct MigrationTests {
    let aliceSub = "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111"
    let bobSub = "001234.1b2c3d4e5f60718293a4b5c6d7e8f90a.2222"

    @Test(arguments: Transport.allCases)
    func senderThenRecipientExchange(_ transport: Transport) throws {
        try ControlHarness.run(transport, scenario: .transferFixture(acceptedAt: TestFixtures.epoch)) { h in
            // Step B: the sending team (com.example.app, ABCDE12345) creates bob's transfer_sub.
            let senderToken = try h.migrationToken("com.example.app")
            let created = try h.migrate(
                [("sub", bobSub), ("target", Scenario.recipientTeamID)], clientID: "com.example.app", token: senderToken
            )
            #expect(created.status == 200, "\(created.text)")
            #expect(created.headers["Cache-Control"] == "no-store")
            let transferSub = try #require(created.json?["transfer_sub"]?.stringValue)
            #expect(transferSub.split(separator: ".").count == 3 && transferSub != bobSub)
            // The same user and recipient always get the same transfer_sub.
            let again = try h.migrate(
                [("sub", bobSub), ("target", Scenario.recipientTeamID)], clientID: "com.example.app", token: senderToken
            )
            #expect(again.json?["transfer_sub"] == .string(transferSub))

            // Step C: the recipient team exchanges it for its own sub and relay address.
            let recipientToken = try h.migrationToken(Scenario.movedAppID)
            let exchanged = try h.migrate(
                [("transfer_sub", transferSub)], clientID: Scenario.movedAppID, token: recipientToken)
            #expect(exchanged.status == 200, "\(exchanged.text)")
            let newSub = try #require(exchanged.json?["sub"]?.stringValue)
            #expect(newSub != bobSub)
            #expect(exchanged.json?["is_private_email"] == .bool(true))
            let relay = try #require(exchanged.json?["email"]?.stringValue)
            #expect(relay.hasSuffix("@privaterelay.appleid.com") && relay != "k7x2m9q4ab@privaterelay.appleid.com")

            // The moved app's sign-in carries the new sub and the transfer_sub during the window.
            let credential = try #require(
                try h.call(
                    "POST", "/mock/credentials", ["client_id": .string(Scenario.movedAppID), "user": .string(bobSub)]
                ).json)
            #expect(credential["user"] == .string(newSub))
            let claims = try h.verifiedClaims(try #require(credential["identityToken"]?.stringValue))
            #expect(claims["transfer_sub"] == .string(transferSub))
            let state = try h.send(
                RequestBuilder.get(
                    "/mock/credential-state", query: [("user", bobSub), ("client_id", Scenario.movedAppID)]))
            #expect(state.json?["state"] == .string("transferred"))
        }
    }

    @Test(arguments: Transport.allCases)
    func windowAndGateErrors(_ transport: Transport) throws {
        try ControlHarness.run(transport, scenario: .transferFixture(acceptedAt: TestFixtures.epoch)) { h in
            let senderToken = try h.migrationToken("com.example.app")
            let fields = [("sub", aliceSub), ("target", Scenario.recipientTeamID)]
            expectAppleError(try h.migrate(fields, clientID: "com.example.app", token: nil), "invalid_request")
            expectAppleError(
                try h.migrate(fields, clientID: "com.example.app", token: "a-made-up-token"), "invalid_request")
            // A token of another client does not match client_id.
            expectAppleError(try h.migrate(fields, clientID: "com.example.web", token: senderToken), "invalid_request")
            expectAppleError(
                try h.migrate(
                    [("sub", "000000.x.0000"), ("target", Scenario.recipientTeamID)], clientID: "com.example.app",
                    token: senderToken), "invalid_request")
            expectAppleError(
                try h.migrate([("sub", aliceSub)], clientID: "com.example.app", token: senderToken), "invalid_request")
            var badSecret = RequestBuilder.form(
                "/auth/usermigrationinfo", fields + [("client_id", "com.example.app"), ("client_secret", "nope")])
            badSecret.headers.add("Authorization", "Bearer \(senderToken)")
            expectAppleError(try h.send(badSecret), "invalid_client")
            let transferSub = try #require(
                try h.migrate(fields, clientID: "com.example.app", token: senderToken).json?["transfer_sub"]?
                    .stringValue)

            // After 60 days the recipient exchange is switched off (on the mock clock).
            #expect(try h.call("POST", "/mock/clock", ["advance": "61d"]).status == 200)
            let recipientToken = try h.migrationToken(Scenario.movedAppID)
            expectAppleError(
                try h.migrate([("transfer_sub", transferSub)], clientID: Scenario.movedAppID, token: recipientToken),
                "invalid_request", "The transfer window has closed")
            let freshSender = try h.migrationToken("com.example.app")
            expectAppleError(
                try h.migrate(fields, clientID: "com.example.app", token: freshSender), "invalid_request",
                "The transfer window has closed")
        }
    }

    @Test func revokedUserCannotBeMigrated() throws {
        try ControlHarness.run(.inProcess, scenario: .transferFixture(acceptedAt: TestFixtures.epoch)) { h in
            #expect(try h.call("PATCH", "/mock/users/alice", ["credential_state": "revoked"]).status == 200)
            let token = try h.migrationToken("com.example.app")
            expectAppleError(
                try h.migrate(
                    [("sub", aliceSub), ("target", Scenario.recipientTeamID)], clientID: "com.example.app", token: token
                ),
                "invalid_request", "The user has revoked authorization")
        }
    }

    /// Issue #11 item 10a: a scenario that fixes bob's `transfer_sub` gets that one value everywhere —
    /// from the sender's `/auth/usermigrationinfo`, in the recipient's id_tokens, and accepted by the
    /// recipient's exchange.
    @Test(arguments: Transport.allCases)
    func fixedTransferSubRoundTrips(_ transport: Transport) throws {
        let fixed = "001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.9999"
        var scenario = Scenario.transferFixture(acceptedAt: TestFixtures.epoch)
        let bob = try #require(scenario.users.firstIndex { $0.id == "bob" })
        scenario.users[bob].transferSub = fixed
        try ControlHarness.run(transport, scenario: scenario) { h in
            let created = try h.migrate(
                [("sub", bobSub), ("target", Scenario.recipientTeamID)], clientID: "com.example.app",
                token: try h.migrationToken("com.example.app"))
            #expect(created.json?["transfer_sub"] == .string(fixed), "\(created.text)")

            let credential = try #require(
                try h.call(
                    "POST", "/mock/credentials", ["client_id": .string(Scenario.movedAppID), "user": .string(bobSub)]
                ).json)
            let claims = try h.verifiedClaims(try #require(credential["identityToken"]?.stringValue))
            #expect(claims["transfer_sub"] == .string(fixed))

            let exchanged = try h.migrate(
                [("transfer_sub", fixed)], clientID: Scenario.movedAppID,
                token: try h.migrationToken(Scenario.movedAppID))
            #expect(exchanged.status == 200, "\(exchanged.text)")
            #expect(exchanged.json?["sub"] == credential["user"])
        }
    }
}
