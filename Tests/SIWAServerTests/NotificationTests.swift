import HTTPServer
import JOSE
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.serialized) struct NotificationTests {
    static func scenario(url: String, configure: (inout NotificationSettings) -> Void = { _ in }) -> Scenario {
        var scenario = Scenario.builtIn
        scenario.appGroups[0].notificationURL = url
        scenario.settings.notifications.retryDelayMilliseconds = 20
        scenario.settings.notifications.timeoutMilliseconds = 2000
        configure(&scenario.settings.notifications)
        return scenario
    }

    @Test func consentRevokedIsSignedWithTheJWKSKeyAndEventsIsAString() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        try ControlHarness.run(.live, scenario: Self.scenario(url: receiver.url)) { h in
            let queued = try h.call(
                "POST", "/mock/notifications",
                ["type": "consent-revoked", "user": "alice", "client_id": "com.example.web"])
            #expect(queued.status == 202, "\(queued.text)")
            #expect(receiver.waitFor(count: 1))
            let claims = try h.verifiedClaims(try #require(receiver.payloads.first))
            #expect(
                claims["iss"] == .string("https://appleid.apple.com") && claims["aud"] == .string("com.example.app"))
            #expect(
                claims["jti"]?.stringValue?.count == 32
                    && claims["exp"]?.intValue == (claims["iat"]?.intValue ?? 0) + 86400)
            let eventsText = try #require(claims["events"]?.stringValue, "events is a JSON string")
            let events = try JSONValue.parse(eventsText)
            #expect(events["type"] == .string("consent-revoked"))
            #expect(events["sub"] == .string("001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111"))
            #expect(events["event_time"] == .int(TestFixtures.epoch))
        }
    }

    @Test func switchesChangeTheShape() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        let scenario = Self.scenario(url: receiver.url) {
            $0.eventsAsString = false
            $0.eventTimeInMilliseconds = true
            $0.accountDeletionType = "account-deleted"
        }
        try ControlHarness.run(.inProcess, scenario: scenario) { h in
            #expect(try h.call("POST", "/mock/notifications", ["type": "account-delete", "user": "bob"]).status == 202)
            #expect(receiver.waitFor(count: 1))
            let claims = try JWS(compact: try #require(receiver.payloads.first)).payload
            let events = try #require(claims["events"]?.objectValue, "events is an object")
            #expect(events["type"] == .string("account-deleted"))
            #expect(events["event_time"] == .int(TestFixtures.epoch * 1000))
        }
    }

    @Test func failingReceiverIsRetriedUntilItAnswers200() throws {
        let receiver = try NotificationReceiver(failures: 2)
        defer { receiver.stop() }
        try ControlHarness.run(.inProcess, scenario: Self.scenario(url: receiver.url)) { h in
            #expect(try h.call("POST", "/mock/notifications", ["type": "email-disabled", "user": "bob"]).status == 202)
            #expect(receiver.waitFor(count: 3))
            var record: JSONValue?
            for _ in 0..<500 {
                record = try h.call("GET", "/mock/notifications").json?["notifications"]?[0]
                if record?["status"] != .string("pending") { break }
                var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
                nanosleep(&pause, nil)
            }
            #expect(record?["status"] == .string("delivered"))
            #expect(
                record?["attempts"]?.arrayValue?.compactMap { $0["outcome"]?.stringValue } == [
                    "http_503", "http_503", "delivered",
                ])
            let last = try #require(receiver.payloads.last)
            let eventsText = try #require(try JWS(compact: last).payload["events"]?.stringValue)
            let events = try JSONValue.parse(eventsText)
            #expect(
                events["email"] == .string("k7x2m9q4ab@privaterelay.appleid.com")
                    && events["is_private_email"] == .string("true"))
            let journal = try h.send(RequestBuilder.get("/mock/requests", query: [("user", "bob")]))
            #expect(journal.json?["requests"]?.arrayValue?.filter { $0["kind"] == .string("notification") }.count == 3)
        }
    }

    @Test func refusingEndpointFailsAfterBoundedAttemptsWithoutBlockingRequests() throws {
        // Nothing listens on this port (a receiver started and stopped).
        let gone = try NotificationReceiver()
        let url = gone.url
        gone.stop()
        let scenario = Self.scenario(url: url) { $0.maxAttempts = 3 }
        try ControlHarness.run(.inProcess, scenario: scenario) { h in
            #expect(
                try h.call("POST", "/mock/notifications", ["type": "consent-revoked", "user": "alice"]).status == 202)
            #expect(try h.send(RequestBuilder.get("/auth/keys")).status == 200)
            var record: JSONValue?
            for _ in 0..<500 {
                record = try h.call("GET", "/mock/notifications").json?["notifications"]?[0]
                if record?["status"] != .string("pending") { break }
                var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
                nanosleep(&pause, nil)
            }
            #expect(record?["status"] == .string("failed"))
            #expect(record?["attempts"]?.arrayValue?.count == 3)
        }
    }

    @Test func userChangesSendNotificationsWhenSwitchedOn() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        let scenario = Self.scenario(url: receiver.url) { $0.sendOnUserChanges = true }
        try ControlHarness.run(.inProcess, scenario: scenario) { h in
            _ = try h.call("POST", "/mock/credentials", ["client_id": "com.example.app", "user": "bob"])
            #expect(try h.call("PATCH", "/mock/users/bob", ["email_forwarding": false]).status == 200)
            #expect(try h.call("PATCH", "/mock/users/bob", ["credential_state": "revoked"]).status == 200)
            #expect(receiver.waitFor(count: 2))
            let types = try receiver.payloads.map { payload in
                try JSONValue.parse(try JWS(compact: payload).payload["events"]?.stringValue ?? "")["type"]?.stringValue
            }
            #expect(Set(types.compactMap { $0 }) == ["email-disabled", "consent-revoked"])
        }
    }

    @Test func badNotificationRequests() throws {
        try ControlHarness.run(.inProcess) { h in
            expectControlError(
                try h.call("POST", "/mock/notifications", ["type": "nope", "user": "alice"]), 400, field: "type")
            expectControlError(
                try h.call("POST", "/mock/notifications", ["type": "consent-revoked", "user": "zed"]), 404,
                field: "user")
            // The built-in scenario registers no endpoint.
            expectControlError(
                try h.call("POST", "/mock/notifications", ["type": "consent-revoked", "user": "alice"]), 409,
                field: "client_id")
        }
    }
}
