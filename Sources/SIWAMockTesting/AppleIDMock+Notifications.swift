import Foundation
import SIWACore
import SIWAServer

/// One server-to-server notification delivery attempt the mock made to an app group's endpoint
/// (https://developer.apple.com/documentation/signinwithapple/processing-changes-for-sign-in-with-apple-accounts).
public struct NotificationDelivery: Sendable, Equatable {
    /// The event type (`consent-revoked`, `account-deleted`, `email-disabled`, `email-enabled`).
    public var type: String
    /// The scenario user the event concerns.
    public var user: String
    /// The app group's primary App ID (the JWS's `aud`).
    public var audience: String
    /// The event's `jti` (the same on duplicate deliveries).
    public var jti: String
    /// Where it was POSTed.
    public var url: String
    /// The signed JWS sent as `{"payload": …}`.
    public var payload: String
    /// 1 for the first attempt, then retries.
    public var attempt: Int
    /// The receiver's HTTP status; nil on a connection error or timeout.
    public var status: Int?
    /// `delivered`, `http_<status>`, `timeout`, `not_allowed: …`, `connection_failed: …`.
    public var outcome: String
    /// True when the receiver answered 200.
    public var isDelivered: Bool { status == 200 }
}

/// Fans delivery attempts out to every open `notifications()` stream.
final class DeliveryFeed: Sendable {
    private let dispatcher: NotificationDispatcher
    private let fanout: StreamFanout<NotificationDelivery>
    private let token: Int

    init(dispatcher: NotificationDispatcher) {
        let fanout = StreamFanout<NotificationDelivery>(capacity: 500)
        self.fanout = fanout
        self.dispatcher = dispatcher
        token = dispatcher.observeAttempts { record in
            guard let attempt = record.attempts.last else { return }
            let notification = record.notification
            fanout.yield(
                NotificationDelivery(
                    type: notification.type, user: notification.userID, audience: notification.audience,
                    jti: notification.jti, url: notification.url, payload: notification.payload,
                    attempt: attempt.number, status: attempt.status, outcome: attempt.outcome))
        }
    }

    func stream() -> AsyncStream<NotificationDelivery> { fanout.stream() }

    /// Ends every stream; later streams end at once.
    func finish() {
        dispatcher.removeObserver(token)
        fanout.finish()
    }
}

/// Server-to-server notifications: what the mock sent to your backend's endpoint.
extension AppleIDMock {
    /// Every delivery attempt from now on, as it happens (each retry too), until ``shutdown()``.
    /// The newest 500 unread attempts are buffered.
    ///
    /// ```swift
    /// let deliveries = apple.notifications()
    /// try apple.revoke(user: "alice")
    /// for await delivery in deliveries where delivery.type == "consent-revoked" { break }
    /// ```
    public func notifications() -> AsyncStream<NotificationDelivery> {
        deliveries.stream()
    }

    /// Sets the app group's notification endpoint (the scenario's `app_groups[].notification_url`),
    /// e.g. your backend's test server.
    /// - Throws: ``AppleIDMockError`` `.notFound` for an unknown group, `.invalid` for a bad URL.
    public func setNotificationURL(_ url: URL?, forAppGroup group: String) throws(AppleIDMockError) {
        let provider = self.provider
        try mapped { () throws(ProviderChangeError) in
            try provider.setNotificationURL(url?.absoluteString, forAppGroup: group)
        }
    }
}
