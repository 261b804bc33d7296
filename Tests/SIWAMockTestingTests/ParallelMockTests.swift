import EventLoop
import Foundation
import HTTP
import SIWAMockTesting
import Synchronization
import Testing

/// Several mocks in one process: each has its own port, users, codes, clock and notifications.
@Suite struct ParallelMockTests {
    @Test func twoMocksInParallelDoNotSeeEachOther() async throws {
        async let first = AppleIDMock.start()
        async let second = AppleIDMock.start(scenario: .text("users:\n  - id: dave\n    email: dave@example.com\n"))
        let (a, b) = try await (first, second)
        defer {
            a.shutdown()
            b.shutdown()
        }
        #expect(a.baseURL != b.baseURL)
        #expect(a.users.map(\.id) == ["alice", "bob", "carol"] && b.users.map(\.id) == ["dave"])

        try await withThrowingTaskGroup(of: Void.self) { group in
            for (mock, user) in [(a, "alice"), (b, "dave")] {
                group.addTask {
                    for _ in 0..<5 {
                        let credential = try mock.authorize(user: user, client: "com.example.app")
                        let answer = try await HTTPForm.post(
                            mock.endpoints.token,
                            [
                                ("grant_type", "authorization_code"), ("code", credential.authorizationCodeString),
                                ("client_id", "com.example.app"),
                                ("client_secret", try mock.clientSecret(client: "com.example.app")),
                            ])
                        #expect(answer.status == 200)
                    }
                }
            }
            try await group.waitForAll()
        }
        // A code from one mock means nothing to the other; the clocks move apart.
        let code = try a.authorize(user: "alice", client: "com.example.app").authorizationCodeString
        let crossed = try await HTTPForm.post(
            b.endpoints.token,
            [
                ("grant_type", "authorization_code"), ("code", code), ("client_id", "com.example.app"),
                ("client_secret", try b.clientSecret(client: "com.example.app")),
            ])
        #expect(crossed.status == 400 && crossed.json["error"] as? String == "invalid_grant")
        b.freezeClock()
        a.freezeClock()
        b.advanceClock(by: .seconds(3600))
        #expect(b.now.timeIntervalSince(a.now) >= 3599)
        #expect(a.requests(path: "/auth/token").count == 5 && b.requests(path: "/auth/token").count == 6)
        try a.revoke(user: "alice")
        #expect(try b.credentialState(forUserID: "dave", client: "com.example.app") == .authorized)
    }

    @Test func notificationsStreamWhatTheMockDelivered() async throws {
        let received = Receiver()
        let receiver = EventLoopServer(
            configuration: {
                var configuration = HTTPServerConfiguration()
                configuration.listener.host = "127.0.0.1"
                configuration.listener.port = 0
                return configuration
            }(),
            responder: received)
        try receiver.start()
        defer { receiver.shutdown() }
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        try apple.setNotificationURL(
            URL(string: "http://127.0.0.1:\(receiver.port)/apple/notifications"), forAppGroup: "com.example.app")
        let deliveries = apple.notifications()
        _ = try apple.authorize(user: "alice", client: "com.example.app")
        try apple.revoke(user: "alice")
        var seen: NotificationDelivery?
        for await delivery in deliveries {
            seen = delivery
            break
        }
        let delivery = try #require(seen)
        #expect(delivery.type == "consent-revoked" && delivery.user == "alice" && delivery.isDelivered)
        #expect(delivery.audience == "com.example.app" && delivery.attempt == 1)
        #expect(received.bodies == [#"{"payload":"\#(delivery.payload)"}"#])

        apple.shutdown()
        var after = 0
        for await _ in apple.notifications() { after += 1 }
        #expect(after == 0, "streams end with the mock")
    }
}

/// A backend's notification endpoint: records each body, answers 200.
final class Receiver: HTTPResponder {
    private let received = Mutex<[String]>([])
    var bodies: [String] { received.withLock { $0 } }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        received.withLock { $0.append(String(decoding: request.body, as: UTF8.self)) }
        return HTTPResponse(status: .ok, headers: HTTPHeaders(), body: [])
    }
}
