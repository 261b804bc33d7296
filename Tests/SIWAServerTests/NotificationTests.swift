import Background
import EventLoop
import HTTP
import JOSE
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import ScenarioModel
import Testing

/// What a notification looks like and when one is sent (docs/fidelity.md#server-to-server-notifications).
/// Deliveries run on a `BackgroundScheduler` with a manual clock: tests wait for the scheduler to be
/// idle and advance time for retries, never sleep.
@Suite struct NotificationTests {
    static func scenario(url: String, configure: (inout NotificationSettings) -> Void = { _ in }) -> Scenario {
        var scenario = Scenario.builtIn
        scenario.appGroups[0].notificationURL = url
        scenario.settings.notifications.retryDelayMilliseconds = 20
        scenario.settings.notifications.timeoutMilliseconds = 5000
        configure(&scenario.settings.notifications)
        return scenario
    }

    /// A control harness whose notifications run on a scheduler timed by `clock`.
    static func run(
        _ transport: Transport, scenario: Scenario, allowList: DestinationAllowList? = nil,
        _ body: (ControlHarness, BackgroundScheduler, ManualSchedulerClock) throws -> Void
    ) throws {
        let clock = ManualSchedulerClock()
        let scheduler = BackgroundScheduler(clock: clock)
        defer { scheduler.stop() }
        let options = MockServer.ControlOptions(scheduler: scheduler, notificationAllowList: allowList)
        try ControlHarness.run(transport, scenario: scenario, options: options) { h in try body(h, scheduler, clock) }
    }

    /// The decoded `events` claim of a received payload (a JSON string by default).
    static func events(_ payload: String) throws -> JSONValue {
        try JSONValue.parse(try #require(try JWS(compact: payload).payload["events"]?.stringValue))
    }

    @Test func defaultPayloadMatchesCapturedNotifications() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        try Self.run(.live, scenario: Self.scenario(url: receiver.url)) { (h, scheduler, _) throws in
            let queued = try h.call(
                "POST", "/mock/notifications",
                ["type": "consent-revoked", "user": "alice", "client_id": "com.example.web"])
            #expect(queued.status == 202, "\(queued.text)")
            #expect(scheduler.waitUntilIdle())
            let claims = try h.verifiedClaims(try #require(receiver.payloads.first))
            #expect(
                claims["iss"] == .string("https://appleid.apple.com") && claims["aud"] == .string("com.example.app"))
            #expect(claims["exp"]?.intValue == (claims["iat"]?.intValue ?? 0) + 86400)
            // 16 random bytes in base64url, like the captured jti: 22 characters, the last one of A, Q, g, w.
            let jti = try #require(claims["jti"]?.stringValue)
            #expect(jti.count == 22 && Base64URL.decode(jti)?.count == 16 && "AQgw".contains(jti.last ?? " "))
            let events = try Self.events(try #require(receiver.payloads.first))
            #expect(events["type"] == .string("consent-revoked"))
            #expect(events["sub"] == .string("001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111"))
            #expect(events["event_time"] == .int(TestFixtures.epoch * 1000), "milliseconds, as captured")
        }
    }

    @Test func switchesRestoreTheOlderShapes() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        let scenario = Self.scenario(url: receiver.url) {
            $0.eventsAsString = false
            $0.eventTimeInMilliseconds = false
            $0.accountDeletionType = "account-delete"
        }
        try Self.run(.inProcess, scenario: scenario) { (h, scheduler, _) throws in
            #expect(
                try h.call("POST", "/mock/notifications", ["type": "account-deleted", "user": "bob"]).status == 202)
            #expect(scheduler.waitUntilIdle())
            let claims = try JWS(compact: try #require(receiver.payloads.first)).payload
            let events = try #require(claims["events"]?.objectValue, "events is an object")
            #expect(events["type"] == .string("account-delete"))
            #expect(events["event_time"] == .int(TestFixtures.epoch))
        }
    }

    @Test func userChangesSendNotificationsByDefault() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        try Self.run(.inProcess, scenario: Self.scenario(url: receiver.url)) { (h, scheduler, _) throws in
            _ = try h.call("POST", "/mock/credentials", ["client_id": "com.example.app", "user": "bob"])
            #expect(try h.call("PATCH", "/mock/users/bob", ["email_forwarding": false]).status == 200)
            #expect(scheduler.waitUntilIdle())
            #expect(try h.call("PATCH", "/mock/users/bob", ["email_forwarding": true]).status == 200)
            #expect(scheduler.waitUntilIdle())
            #expect(try h.call("PATCH", "/mock/users/bob", ["credential_state": "revoked"]).status == 200)
            #expect(scheduler.waitUntilIdle())
            #expect(try h.call("DELETE", "/mock/users/bob").status == 200)
            #expect(scheduler.waitUntilIdle())
            let types = try receiver.payloads.map { try Self.events($0)["type"]?.stringValue }
            #expect(types == ["email-disabled", "email-enabled", "consent-revoked", "account-deleted"])
            let forwarding = try Self.events(receiver.payloads[0])
            #expect(
                forwarding["email"] == .string("k7x2m9q4ab@privaterelay.appleid.com")
                    && forwarding["is_private_email"] == .string("true"))
        }
    }

    @Test func userChangesAreSilentWhenSwitchedOffOrWithoutEndpoint() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        let silent = Self.scenario(url: receiver.url) { $0.sendOnUserChanges = false }
        var withoutEndpoint = Scenario.builtIn
        withoutEndpoint.appGroups[0].notificationURL = nil
        for scenario in [silent, withoutEndpoint] {
            try Self.run(.inProcess, scenario: scenario) { (h, scheduler, _) throws in
                _ = try h.call("POST", "/mock/credentials", ["client_id": "com.example.app", "user": "alice"])
                #expect(try h.call("PATCH", "/mock/users/alice", ["credential_state": "revoked"]).status == 200)
                #expect(try h.call("DELETE", "/mock/users/alice").status == 200)
                #expect(scheduler.waitUntilIdle())
                #expect(try h.call("GET", "/mock/notifications").json?["notifications"]?.arrayValue?.isEmpty == true)
            }
        }
        #expect(receiver.bodies.isEmpty)
    }

    /// A forwarding change before any sign-in notifies nobody, as Apple would, and the log says why.
    @Test func changeBeforeAnySignInSaysWhyNobodyWasNotified() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        try Self.run(.inProcess, scenario: Self.scenario(url: receiver.url)) { (h, scheduler, _) throws in
            #expect(try h.call("PATCH", "/mock/users/bob", ["email_forwarding": false]).status == 200)
            #expect(scheduler.waitUntilIdle())
            #expect(receiver.bodies.isEmpty)
            #expect(
                h.log.lines.contains {
                    $0.hasPrefix("no email-disabled notification for bob: the user has not signed in to any app group")
                }, "\(h.log.lines)")
        }
    }

    @Test func badNotificationRequests() throws {
        try ControlHarness.run(.inProcess) { h in
            expectControlError(
                try h.call("POST", "/mock/notifications", ["type": "nope", "user": "alice"]), 400, field: "type")
            expectControlError(
                try h.call("POST", "/mock/notifications", ["type": "consent-revoked", "user": "zed"]), 404,
                field: "user")
            for deliveries in [0, 11] {
                expectControlError(
                    try h.call(
                        "POST", "/mock/notifications",
                        ["type": "consent-revoked", "user": "alice", "deliveries": .int(Int64(deliveries))]), 400,
                    field: "deliveries")
            }
            expectControlError(
                try h.call("PATCH", "/mock/notifications/settings", ["deliveries_per_event": 11]), 400,
                field: "deliveries_per_event")
            // The built-in scenario registers no endpoint.
            expectControlError(
                try h.call("POST", "/mock/notifications", ["type": "consent-revoked", "user": "alice"]), 409,
                field: "client_id")
        }
    }
}
