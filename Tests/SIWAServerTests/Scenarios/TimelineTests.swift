import Background
import Foundation
import HTTP
import JOSE
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import Testing

/// Timeline actions beyond the example files: notifications, faults switched on by time, deletion.
@Suite struct TimelineTests {
    static func server(
        _ text: String, clock: ManualClock, scheduler: BackgroundScheduler = BackgroundScheduler()
    ) throws -> MockServer {
        let scenario = try ScenarioFiles.loader.load(text, file: ScenarioFiles.directory + "/inline.yaml")
        return try MockServer(
            configuration: .init(publicURL: "http://127.0.0.1:8080", scenario: scenario, clock: clock),
            options: MockServer.ControlOptions(scheduler: scheduler))
    }

    static let base = """
        teams:
          - id: ABCDE12345
            keys: [{id: KEY1234567, pem_file: keys/AuthKey_KEY1234567.pub.pem}]
        clients:
          - id: com.example.web
            redirect_uris: [https://app.example.com/auth/apple/callback]
        signing_keys:
          - {kid: Aj3F8kLq2X, pem_file: keys/signing-Aj3F8kLq2X.pem, signs: true}
        users:
          - {id: alice, email: alice@example.com}

        """

    @Test func notifyActionPostsASignedNotification() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        let clock = TestFixtures.clock()
        let scheduler = BackgroundScheduler(clock: ManualSchedulerClock())
        let server = try Self.server(
            Self.base + """
                app_groups:
                  - {id: com.example.web, clients: [com.example.web], notification_url: "\(receiver.url)"}
                timeline:
                  - at: 1m
                    do:
                      - notify: {type: consent-revoked, user: alice}
                """, clock: clock, scheduler: scheduler)
        _ = server.respond(to: RequestBuilder.get("/auth/keys"))
        #expect(scheduler.waitUntilIdle())
        #expect(receiver.bodies.isEmpty, "not due yet")
        clock.advance(seconds: 60)
        _ = server.respond(to: RequestBuilder.get("/auth/keys"))
        #expect(scheduler.waitUntilIdle())
        #expect(receiver.bodies.count == 1)
        let jws = try JWS(compact: try #require(receiver.payloads.first))
        let events = try #require(jws.payload["events"]?.stringValue)
        #expect(events.contains(#""type":"consent-revoked""#))
        #expect(jws.payload["aud"] == .string("com.example.web"))
    }

    @Test func revokeConsentActionSendsConsentRevokedByDefault() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        let clock = TestFixtures.clock()
        let scheduler = BackgroundScheduler(clock: ManualSchedulerClock())
        let withNativeApp = Self.base.replacingOccurrences(
            of: "clients:\n", with: "clients:\n  - {id: com.example.app, kind: native}\n")
        let server = try Self.server(
            withNativeApp + """
                app_groups:
                  - {id: com.example.web, clients: [com.example.web, com.example.app], notification_url: "\(receiver.url)"}
                timeline:
                  - at: 1m
                    do: [{revoke_consent: alice}]
                """, clock: clock, scheduler: scheduler)
        let signIn = RequestBuilder.post(
            "/mock/credentials", body: #"{"client_id":"com.example.app","user":"alice"}"#,
            contentType: "application/json")
        #expect(server.respond(to: signIn).status == 200)
        clock.advance(seconds: 60)
        _ = server.respond(to: RequestBuilder.get("/auth/keys"))
        #expect(scheduler.waitUntilIdle())
        let jws = try JWS(compact: try #require(receiver.payloads.first))
        let events = try JSONValue.parse(try #require(jws.payload["events"]?.stringValue))
        #expect(events["type"] == .string("consent-revoked") && jws.payload["aud"] == .string("com.example.web"))
    }

    @Test func timeStartsAFaultAndARequestCountDeletesAUser() throws {
        let clock = TestFixtures.clock()
        let server = try Self.server(
            Self.base + """
                faults:
                  - {id: keys-down, match: GET /auth/keys, status: 503, enabled: false}
                timeline:
                  - at: 5m
                    do: [{start_fault: keys-down}]
                  - at: 10m
                    do: [{stop_fault: keys-down}]
                  - after: 1 GET /auth/authorize for alice
                    do: [{delete_account: alice}]
                """, clock: clock)
        #expect(server.respond(to: RequestBuilder.get("/auth/keys")).status == 200)
        clock.advance(seconds: 300)
        #expect(server.respond(to: RequestBuilder.get("/auth/keys")).status == 503)
        clock.advance(seconds: 300)
        #expect(server.respond(to: RequestBuilder.get("/auth/keys")).status == 200)

        let signIn = RequestBuilder.authorize(extra: [("login_hint", "alice")])
        #expect(server.respond(to: signIn).status == 200)
        #expect(server.apple.provider.scenario.user(id: "alice") == nil, "deleted after her first sign-in")
        #expect(server.respond(to: signIn).status != 200)
    }

    @Test func resetRestartsTheTimelineAndFaultCounters() throws {
        let clock = TestFixtures.clock()
        let server = try Self.server(
            Self.base + """
                faults:
                  - {id: once, match: GET /auth/keys, times: 1, status: 500}
                """, clock: clock)
        #expect(server.respond(to: RequestBuilder.get("/auth/keys")).status == 500)
        #expect(server.respond(to: RequestBuilder.get("/auth/keys")).status == 200)
        #expect(server.respond(to: RequestBuilder.post("/mock/reset", body: "", contentType: nil)).status == 200)
        #expect(server.respond(to: RequestBuilder.get("/auth/keys")).status == 500, "the rule starts over after reset")
    }
}

/// Users that start as returning (`first_authorization_done` / `consented_scopes`).
@Suite struct ReturningUserTests {
    @Test func returningUsersGetNoUserFieldOnTheirFirstSignIn() throws {
        let server = try TimelineTests.server(
            TimelineTests.base.replacingOccurrences(
                of: "  - {id: alice, email: alice@example.com}",
                with: "  - {id: alice, email: alice@example.com}\n  - {id: ron, first_authorization_done: true}"),
            clock: TestFixtures.clock())
        func userField(_ login: String) throws -> String? {
            let page = server.respond(to: RequestBuilder.authorize(extra: [("login_hint", login)]))
            #expect(page.status == 200)
            return try #require(HTMLForm.parse(String(decoding: page.body, as: UTF8.self))).inputs.first {
                $0.name == "user"
            }?.value
        }
        #expect(try userField("ron") == nil, "ron consented before the scenario started")
        #expect(try userField("alice") != nil, "alice signs in for the first time")
        #expect(try userField("alice") == nil)
    }
}
