import HTTP
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import Testing

/// Each file in `scenarios/` does what its comment block claims, proven through real HTTP requests.
@Suite struct ExampleScenarioTests {
    @Test func privateRelayUsersGetStableRelayAddresses() throws {
        try ScenarioHarness.run("private-relay.yaml") { (harness) throws in
            let priya = try harness.signIn("priya")
            let claims = try harness.verified(try #require(priya[scenarioField: "id_token"])).claims
            let relay = try #require(claims["email"]?.stringValue)
            #expect(relay.hasSuffix("@privaterelay.appleid.com") && relay.count == 35)
            #expect(relay == harness.scenario.user(id: "priya")?.relayEmail)
            #expect(claims["is_private_email"] == .bool(true))
            #expect(priya[scenarioField: "user"]?.contains(relay) == true, "the user field carries the relay address")
            // Reloading the same file gives the same address (seeded), bob keeps his fixed one.
            #expect(try ScenarioFiles.load("private-relay.yaml").user(id: "priya")?.relayEmail == relay)
            let bob = try harness.signIn("bob")
            let bobClaims = try harness.verified(try #require(bob[scenarioField: "id_token"])).claims
            #expect(bobClaims["email"] == .string("k7x2m9q4ab@privaterelay.appleid.com"))
            #expect(harness.scenario.user(id: "bob")?.emailForwardingEnabled == false)
        }
    }

    @Test func consentIsRevokedAfterTheSecondRefresh() throws {
        try ScenarioHarness.run("revoked-consent.yaml") { (harness) throws in
            let first = try harness.signIn("alice")
            #expect(first[scenarioField: "user"] != nil, "first authorization sends user")
            let tokens = try harness.redeem(try #require(first[scenarioField: "code"]))
            #expect(tokens.status == 200, "\(tokens.text)")
            let refreshToken = try #require(tokens.json?["refresh_token"]?.stringValue)
            #expect(try harness.refresh(refreshToken).status == 200)
            #expect(try harness.refresh(refreshToken).status == 200)
            let third = try harness.refresh(refreshToken)
            #expect(third.status == 400 && third.error == "invalid_grant", "\(third.text)")
            let again = try harness.signIn("alice")
            #expect(again[scenarioField: "user"] != nil, "after revocation the next sign-in is a first one again")
            // dave starts revoked: his sign-in is a first one and re-authorizes him.
            let dave = try harness.signIn("dave")
            #expect(dave[scenarioField: "user"] != nil)
        }
    }

    @Test func transferredUserTokensCarryTransferSub() throws {
        try ScenarioHarness.run("transferred-user.yaml") { (harness) throws in
            let taylor = try harness.verified(try #require(try harness.signIn("taylor")[scenarioField: "id_token"]))
                .claims
            #expect(taylor["transfer_sub"] == .string("001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.9999"))
            #expect(taylor["sub"] == .string("001234.3d4e5f60718293a4b5c6d7e8f90a1b2c.4444"))
            let uma = try harness.verified(try #require(try harness.signIn("uma")[scenarioField: "id_token"])).claims
            #expect(uma["transfer_sub"] == nil)
        }
    }

    @Test func realUserStatusAlwaysOverrideReachesWebIDTokens() throws {
        try ScenarioHarness.run("real-user-status.yaml") { (harness) throws in
            for (user, expected) in [("ursula", Int64(0)), ("uri", 1), ("lena", 2)] {
                let fields = try harness.signIn(user)
                let claims = try harness.verified(try #require(fields[scenarioField: "id_token"])).claims
                #expect(claims["real_user_status"] == .int(expected), "\(user)")
                // Also on the token endpoint's id_token, and on a returning sign-in.
                let tokens = try harness.redeem(try #require(fields[scenarioField: "code"]))
                let tokenClaims = try harness.verified(try #require(tokens.json?["id_token"]?.stringValue)).claims
                #expect(tokenClaims["real_user_status"] == .int(expected), "\(user) token endpoint")
            }
            let nora = try harness.verified(try #require(try harness.signIn("nora")[scenarioField: "id_token"])).claims
            #expect(nora["real_user_status"] == nil, "without the override the web flow sends none, like Apple")
        }
    }

    @Test func keysRotateOnTheMockClock() throws {
        try ScenarioHarness.run("key-rotation.yaml") { (harness) throws in
            #expect(try harness.publishedKIDs() == ["Aj3F8kLq2X"])
            #expect(
                try harness.verified(try #require(try harness.signIn("alice")[scenarioField: "id_token"])).kid
                    == "Aj3F8kLq2X")
            harness.clock.advance(seconds: 600)
            #expect(try harness.publishedKIDs() == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9"])
            #expect(
                try harness.verified(try #require(try harness.signIn("alice")[scenarioField: "id_token"])).kid
                    == "Pb7Yt1ZcQ9")
            harness.clock.advance(seconds: 600)
            #expect(try harness.publishedKIDs() == ["Pb7Yt1ZcQ9"])
            #expect(harness.log.lines.contains("timeline: applied retire_key Aj3F8kLq2X"))
        }
    }

    @Test func flakyTokenEndpointFailsThenRecovers() throws {
        try ScenarioHarness.run("flaky-token-endpoint.yaml") { (harness) throws in
            let code = try #require(try harness.signIn("alice")[scenarioField: "code"])
            let first = try harness.redeem(code)
            #expect(first.status == 503 && first.text == "Service Unavailable")
            let second = try harness.redeem(code)
            #expect(second.status == 429 && second.error == "too_many_requests")
            #expect(second.headers["Retry-After"] == "2")
            let third = try harness.redeem(code)
            #expect(third.status == 200 && third.json?["id_token"] != nil, "\(third.text)")
            let faults = try #require(try harness.send(RequestBuilder.get("/mock/faults")).json?["faults"]?.arrayValue)
            let counters = faults.compactMap(\.objectValue).map {
                ($0["id"]?.stringValue ?? "", $0["fired"]?.intValue ?? -1)
            }
            #expect(counters.map(\.0) == ["token-503", "token-429", "revoke-slow", "keys-reset", "token-slow"])
            #expect(counters.map(\.1) == [1, 1, 0, 0, 0])
            for _ in 0..<4 { #expect(try harness.send(RequestBuilder.get("/auth/keys")).status == 200) }
            #expect(throws: (any Error).self, "the 5th /auth/keys connection is reset") {
                _ = try harness.send(RequestBuilder.get("/auth/keys"))
            }
            #expect(try harness.send(RequestBuilder.get("/auth/keys")).status == 200)
        }
    }

    @Test func expiredCodeOnAFrozenClock() throws {
        try ScenarioHarness.run("expired-code-and-clock.yaml") { (harness) throws in
            let fields = try harness.signIn("alice")
            let claims = try harness.verified(try #require(fields[scenarioField: "id_token"])).claims
            #expect(claims["iat"] == .int(1_767_225_600) && claims["exp"] == .int(1_767_225_600 + 600))
            harness.clock.advance(seconds: 6 * 60)
            let late = try harness.redeem(try #require(fields[scenarioField: "code"]))
            #expect(late.status == 400 && late.error == "invalid_grant", "\(late.text)")
        }
    }
}
