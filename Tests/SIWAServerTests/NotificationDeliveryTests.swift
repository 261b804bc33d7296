import Background
import EventLoop
import HTTP
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import Testing

/// How notifications are delivered: retries with doubling delays on the scheduler's clock, and the
/// guards against receivers that drip, flood or hang (docs/notifications.md).
@Suite struct NotificationDeliveryTests {
    static func record(_ h: ControlHarness, _ index: Int = 0) throws -> JSONValue? {
        try h.call("GET", "/mock/notifications").json?["notifications"]?[index]
    }

    static func outcomes(_ record: JSONValue?) -> [String]? {
        record?["attempts"]?.arrayValue?.compactMap { $0["outcome"]?.stringValue }
    }

    @Test func failingReceiverIsRetriedWithDoublingDelays() throws {
        let receiver = try NotificationReceiver(failures: 2)
        defer { receiver.stop() }
        try NotificationTests.run(.inProcess, scenario: NotificationTests.scenario(url: receiver.url)) {
            (h, scheduler, clock) throws in
            #expect(try h.call("POST", "/mock/notifications", ["type": "email-disabled", "user": "bob"]).status == 202)
            #expect(scheduler.waitUntilIdle())
            #expect(try Self.outcomes(Self.record(h)) == ["http_503"])
            // The first retry waits 20 ms, the second 40 ms.
            for (wait, count) in [(19, 1), (1, 2), (39, 2), (1, 3)] {
                clock.advance(milliseconds: Int64(wait))
                #expect(scheduler.waitUntilIdle())
                #expect(receiver.bodies.count == count, "after +\(wait) ms")
            }
            let record = try Self.record(h)
            #expect(record?["status"] == .string("delivered"))
            #expect(Self.outcomes(record) == ["http_503", "http_503", "delivered"])
            let journal = try h.send(RequestBuilder.get("/mock/requests", query: [("user", "bob")]))
            #expect(journal.json?["requests"]?.arrayValue?.filter { $0["kind"] == .string("notification") }.count == 3)
        }
    }

    @Test func refusingEndpointFailsAfterBoundedAttemptsWithoutBlockingRequests() throws {
        // Nothing listens on this port (a receiver started and stopped).
        let gone = try NotificationReceiver()
        let url = gone.url
        gone.stop()
        let scenario = NotificationTests.scenario(url: url) { $0.maxAttempts = 3 }
        try NotificationTests.run(.inProcess, scenario: scenario) { (h, scheduler, clock) throws in
            #expect(
                try h.call("POST", "/mock/notifications", ["type": "consent-revoked", "user": "alice"]).status == 202)
            #expect(try h.send(RequestBuilder.get("/auth/keys")).status == 200)
            for wait in [0, 20, 40, 80] {
                clock.advance(milliseconds: Int64(wait))
                #expect(scheduler.waitUntilIdle())
            }
            let record = try Self.record(h)
            #expect(record?["status"] == .string("failed"))
            #expect(record?["attempts"]?.arrayValue?.count == 3)
            #expect(scheduler.pendingJobs == 0, "no retry after the last attempt")
        }
    }

    @Test func drippingReceiverTimesOutAtTheAttemptDeadline() throws {
        // One byte of the reply every 100 ms: every read makes progress, only an overall deadline ends it.
        let receiver = try NotificationReceiver(
            delivery: .slowBody(chunkSize: 1, intervalMilliseconds: 100), replyBody: Array(repeating: 0x2e, count: 100))
        defer { receiver.stop() }
        let scenario = NotificationTests.scenario(url: receiver.url) {
            $0.timeoutMilliseconds = 300
            $0.maxAttempts = 1
        }
        try NotificationTests.run(.inProcess, scenario: scenario) { (h, scheduler, _) throws in
            #expect(try h.call("POST", "/mock/notifications", ["type": "email-enabled", "user": "bob"]).status == 202)
            #expect(scheduler.waitUntilIdle(timeoutMilliseconds: 3000), "the attempt ends at its 300 ms deadline")
            let record = try Self.record(h)
            #expect(record?["status"] == .string("failed") && Self.outcomes(record) == ["timeout"])
        }
    }

    @Test func hugeReplyIsReadOnlyUpToTheCap() throws {
        // 16 MiB sent in 256 KiB pieces 50 ms apart (3.2 s in all); the status line is all that matters.
        let receiver = try NotificationReceiver(
            delivery: .slowBody(chunkSize: 256 * 1024, intervalMilliseconds: 50),
            replyBody: Array(repeating: 0x61, count: 16 << 20))
        defer { receiver.stop() }
        try NotificationTests.run(.inProcess, scenario: NotificationTests.scenario(url: receiver.url)) {
            (h, scheduler, _) throws in
            #expect(try h.call("POST", "/mock/notifications", ["type": "email-enabled", "user": "bob"]).status == 202)
            #expect(scheduler.waitUntilIdle(timeoutMilliseconds: 1500), "stops reading after 64 KiB")
            #expect(try Self.record(h)?["status"] == .string("delivered"))
        }
    }

    @Test func hangingReceiverDoesNotDelayOtherReceivers() throws {
        let hanging = try NotificationReceiver(delivery: .delayed(milliseconds: 30_000))
        let healthy = try NotificationReceiver()
        defer {
            hanging.stop()
            healthy.stop()
        }
        try NotificationTests.run(.inProcess, scenario: NotificationTests.scenario(url: hanging.url)) {
            (h, scheduler, _) throws in
            let stuck = try h.call(
                "POST", "/mock/notifications", ["type": "email-enabled", "user": "bob", "deliveries": 3])
            #expect(stuck.status == 202)
            let moved = try h.call(
                "PATCH", "/mock/app-groups/com.example.app", ["notification_url": .string(healthy.url)])
            #expect(moved.status == 200)
            #expect(try h.call("POST", "/mock/notifications", ["type": "email-enabled", "user": "bob"]).status == 202)
            // The hanging receiver holds its two slots for the whole 5 s deadline; the healthy one is
            // answered meanwhile, and the third copy for the hanging one waits for a slot.
            #expect(!scheduler.waitUntilIdle(timeoutMilliseconds: 1500))
            #expect(healthy.bodies.count == 1)
            #expect(try Self.record(h, 3)?["status"] == .string("delivered"))
            #expect(
                try (0..<3).map { try Self.record(h, $0)?["status"] } == Array(repeating: .string("pending"), count: 3))
            #expect(scheduler.pendingJobs == 1)
        }
    }

    @Test func duplicateDeliveryRepeatsTheSameEvent() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        let scenario = NotificationTests.scenario(url: receiver.url) { $0.deliveriesPerEvent = 3 }
        try NotificationTests.run(.inProcess, scenario: scenario) { (h, scheduler, _) throws in
            let queued = try h.call("POST", "/mock/notifications", ["type": "consent-revoked", "user": "alice"])
            #expect(queued.json?["queued"]?.arrayValue?.count == 3)
            #expect(scheduler.waitUntilIdle())
            #expect(receiver.bodies.count == 3 && Set(receiver.bodies).count == 1, "the same body three times")
            let once = try h.call(
                "POST", "/mock/notifications", ["type": "consent-revoked", "user": "alice", "deliveries": 1])
            #expect(once.json?["queued"]?.arrayValue?.count == 1)
            #expect(scheduler.waitUntilIdle())
            #expect(receiver.bodies.count == 4)
            let records = try h.call("GET", "/mock/notifications").json?["notifications"]?.arrayValue ?? []
            #expect(Set(records.compactMap { $0["jti"]?.stringValue }).count == 2)
            #expect(records.allSatisfy { $0["status"] == .string("delivered") })
        }
    }

    @Test func allowListRefusesOtherDestinationsWithoutRetrying() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        let scenario = NotificationTests.scenario(url: receiver.url)
        try NotificationTests.run(
            .inProcess, scenario: scenario, allowList: try DestinationAllowList(parsing: "10.0.0.0/8")
        ) {
            (h, scheduler, clock) throws in
            #expect(
                try h.call("POST", "/mock/notifications", ["type": "consent-revoked", "user": "alice"]).status == 202)
            clock.advance(milliseconds: 60_000)
            #expect(scheduler.waitUntilIdle())
            let record = try Self.record(h)
            #expect(record?["status"] == .string("failed"))
            #expect(Self.outcomes(record)?.count == 1 && Self.outcomes(record)?[0].hasPrefix("not_allowed") == true)
            #expect(receiver.bodies.isEmpty)
        }
        try NotificationTests.run(
            .inProcess, scenario: scenario, allowList: try DestinationAllowList(parsing: "127.0.0.1")
        ) {
            (h, scheduler, _) throws in
            #expect(
                try h.call("POST", "/mock/notifications", ["type": "consent-revoked", "user": "alice"]).status == 202)
            #expect(scheduler.waitUntilIdle())
            #expect(try Self.record(h)?["status"] == .string("delivered"))
        }
    }
}
