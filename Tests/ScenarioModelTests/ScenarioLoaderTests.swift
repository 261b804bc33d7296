import Foundation
import SIWATestSupport
import ScenarioModel
import Testing

@Suite struct ScenarioLoaderTests {
    let loader = ScenarioLoader(generateMissingKeys: false)

    func load(_ text: String) throws -> Scenario { try loader.load(text, file: "test.yaml") }

    static func isAppleSub(_ sub: String) -> Bool {
        let parts = sub.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0].count == 6 && parts[0].allSatisfy(\.isNumber) && parts[1].count == 32
            && parts[1].allSatisfy(\.isHexDigit) && parts[2].count == 4 && parts[2].allSatisfy(\.isNumber)
    }

    @Test func generatedSubsAndRelayAddressesAreStableAppleShapedAndSeedDependent() throws {
        let text = """
            seed: 7
            teams: [{id: ABCDE12345}]
            users:
              - {id: alice, private_email: true}
              - {id: bob, private_email: true}
            """
        let first = try load(text)
        let again = try load(text)
        let other = try load(text.replacingOccurrences(of: "seed: 7", with: "seed: 8"))
        #expect(first.users == again.users)
        #expect(first.users.allSatisfy { Self.isAppleSub($0.sub) })
        #expect(first.users[0].sub != first.users[1].sub)
        #expect(first.users[0].sub != other.users[0].sub)
        let relay = try #require(first.users[0].relayEmail)
        #expect(relay.hasSuffix("@privaterelay.appleid.com") && relay.count == 10 + "@privaterelay.appleid.com".count)
        #expect(relay != first.users[1].relayEmail)
        // A different team gets a different relay address for the same user.
        let otherTeam = try load(text.replacingOccurrences(of: "ABCDE12345", with: "ZZZZZ99999"))
        #expect(otherTeam.users[0].relayEmail != relay)
    }

    @Test func hidingGivesAUserWithoutRelayAddressTheOneTheLoaderWouldDerive() throws {
        let text = """
            seed: 7
            teams: [{id: ABCDE12345}]
            users:
              - {id: alice, private_email: true}
              - {id: bob}
            """
        let scenario = try load(text)
        let shared = try load(text.replacingOccurrences(of: "{id: alice, private_email: true}", with: "{id: alice}"))
        let hidden = EmailChoice.hide.applied(to: shared.users[0], in: shared)
        #expect(hidden.relayEmail == scenario.users[0].relayEmail && hidden.isDeliveredEmailPrivate)
        #expect(EmailChoice.share.applied(to: scenario.users[0], in: scenario).deliveredEmail == "alice@example.com")
    }

    @Test func clientNameAndWebMessageShapeAreRead() throws {
        let scenario = try load(
            """
            web_message: response
            teams: [{id: ABCDE12345}]
            clients:
              - {id: com.example.web, redirect_uris: ["https://a.example/cb"], name: Sample App}
              - {id: com.example.other, redirect_uris: ["https://a.example/cb"]}
            """)
        #expect(scenario.settings.webMessageShape == .response)
        #expect(scenario.clients.map(\.name) == ["Sample App", nil])
        #expect(try load("teams: [{id: ABCDE12345}]").settings.webMessageShape == .envelope)
        let tooLong = String(repeating: "x", count: 129)
        let names = "teams: [{id: ABCDE12345}]\nclients: [{id: c, redirect_uris: [\"https://a/cb\"], name: \(tooLong)}]"
        #expect {
            try load(names)
        } throws: { "\($0)".contains("a client name has 1 to 128 bytes (got 129)") }
        #expect {
            try load("web_message: envelopes")
        } throws: { "\($0)".contains("expected one of 'envelope', 'response'") }
    }

    @Test func userFieldsAreRead() throws {
        let scenario = try load(
            """
            users:
              - id: alice
                email: a@example.com
                email_verified: false
                name: {first: Ann, last: Lee}
                real_user_status: {value: unknown, always: true}
                credential_state: transferred
                transfer_sub: 001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.9999
                first_authorization_done: true
              - id: bob
                name: Bob Bobson
                email_forwarding: false
                consented_scopes: [email]
            """)
        let alice = scenario.users[0]
        let bob = scenario.users[1]
        #expect(alice.email == "a@example.com" && !alice.emailVerified)
        #expect(alice.name == PersonName(firstName: "Ann", lastName: "Lee"))
        #expect(alice.realUserStatus == .unknown && alice.realUserStatusAlways)
        #expect(alice.credentialState == .transferred && alice.transferSub != nil)
        #expect(alice.consentedScopes == [.name, .email])
        #expect(bob.name == PersonName(firstName: "Bob", lastName: "Bobson"))
        #expect(!bob.emailForwardingEnabled && bob.consentedScopes == [.email])
        #expect(bob.email == "bob@example.com")
    }

    @Test func settingsAndClockAreRead() throws {
        let scenario = try load(
            """
            issuer: https://issuer.test
            lifetime: 10m
            boolean_style: string
            code_lifetime: 30s
            clock: {start: 2026-01-01T00:00:00Z, frozen: true}
            """)
        #expect(scenario.settings.issuer == "https://issuer.test")
        #expect(scenario.settings.idTokenLifetimeSeconds == 600)
        #expect(scenario.settings.booleanStyle == .string)
        #expect(scenario.settings.codeLifetimeSeconds == 30)
        #expect(scenario.clock == ClockSettings(startMilliseconds: 1_767_225_600_000, frozen: true))
    }

    @Test func faultRulesAreRead() throws {
        let scenario = try load(
            """
            users: [{id: alice}]
            faults:
              - id: limited
                match: POST /auth/token
                form: {grant_type: refresh_token}
                user: alice
                after: 2
                times: 1
                probability: 0.5
                window: {from: 1m, until: 5m}
                status: 429
                error: too_many_requests
                headers: {Retry-After: "30"}
                delay: {min: 10ms, max: 20ms}
              - match: GET /auth/keys
                connection: slow_body
                slow_body: {chunk_size: 4, interval: 50ms}
            """)
        let rule = scenario.faults[0]
        #expect(rule.id == "limited")
        #expect(
            rule.matcher
                == RequestMatcher(
                    method: "POST", path: "/auth/token", fields: ["grant_type": "refresh_token"], userID: "alice"))
        #expect(rule.after == 2 && rule.times == 1 && rule.probability == 0.5)
        #expect(rule.window == FaultRule.TimeWindow(fromMilliseconds: 60_000, untilMilliseconds: 300_000))
        #expect(rule.action.response?.status == 429 && rule.action.response?.error == "too_many_requests")
        #expect(rule.action.response?.headers.first?.name == "Retry-After")
        #expect(rule.action.delay == DelayRange(minMilliseconds: 10, maxMilliseconds: 20))
        #expect(scenario.faults[1].id == "fault-2")
        #expect(scenario.faults[1].action.connection == .slowBody(chunkSize: 4, intervalMilliseconds: 50))
    }

    @Test func timelineSentenceAndStructuredFormsAreEquivalent() throws {
        let scenario = try load(
            """
            clients: [{id: web, team: ABCDE12345, redirect_uris: ["https://x.test/cb"]}]
            teams: [{id: ABCDE12345}]
            users: [{id: alice}]
            timeline:
              - after: 2 POST /auth/token with grant_type=refresh_token for alice from web
                do: [{revoke_consent: alice}]
              - after: {count: 2, match: POST /auth/token, form: {grant_type: refresh_token}, user: alice, client: web}
                do:
                  - update_user: {user: alice, email_forwarding: false}
                  - delete_account: alice
              - at: 10m
                do: [{start_fault: f}]
            faults: [{id: f, match: GET /auth/keys, status: 500, enabled: false}]
            """)
        #expect(scenario.timeline.count == 3)
        #expect(scenario.timeline[0].trigger == scenario.timeline[1].trigger)
        #expect(scenario.timeline[0].actions == [.updateUser("alice", UserChange(credentialState: .revoked))])
        #expect(
            scenario.timeline[1].actions == [
                .updateUser("alice", UserChange(emailForwardingEnabled: false)), .deleteUser("alice"),
            ])
        #expect(
            scenario.timeline[2] == TimelineEntry(trigger: .at(milliseconds: 600_000), actions: [.startFault(id: "f")]))
    }

    @Test func jsonIsAccepted() throws {
        let scenario = try load(#"{"seed": 3, "users": [{"id": "alice", "email": "a@x.test"}]}"#)
        #expect(scenario.seed == 3 && scenario.users.first?.email == "a@x.test")
    }

    @Test func faultBodyForTheControlAPIIsCheckedAgainstTheScenario() throws {
        #expect(throws: Never.self) {
            _ = try loader.loadFault(
                #"{"match": "POST /auth/token", "status": 503}"#, file: "body", scenario: .builtIn, defaultID: "x")
        }
        do {
            _ = try loader.loadFault(
                #"{"user": "zed", "status": 503}"#, file: "body", scenario: .builtIn, defaultID: "x")
            Issue.record("unknown user accepted")
        } catch {
            #expect(error.description == "body:1:10: unknown user 'zed'")
        }
    }
}
