/// How server-to-server notifications look and are delivered (docs/fidelity.md#server-to-server-notifications).
///
/// Defaults follow what Apple really sends: `events` as a JSON string, `event_time` in milliseconds,
/// `account-deleted`, and a notification for every user change Apple announces.
package struct NotificationSettings: Sendable, Equatable {
    /// `events` as a JSON-encoded string (real payloads) or as an object (the docs example).
    package var eventsAsString: Bool = true
    /// `event_time` in milliseconds (both captured events: 1611765847700, 1657617063012) instead of
    /// seconds.
    package var eventTimeInMilliseconds: Bool = true
    /// The account-deletion type name: `account-deleted` (Apple's current page) or `account-delete`
    /// (WWDC20, many older handlers).
    package var accountDeletionType: String = "account-deleted"
    /// Whether user changes (consent revoked, forwarding switched, account deleted) send notifications
    /// to the app groups concerned that have a `notification_url`.
    package var sendOnUserChanges: Bool = true
    /// How many times each notification is delivered (same `jti`), to test a receiver's idempotency:
    /// Apple may deliver one event more than once.
    package var deliveriesPerEvent: Int = 1
    /// Delivery attempts per notification (first try plus retries) on non-200 answers and timeouts.
    package var maxAttempts: Int = 5
    /// Delay before the first retry; doubled for each later one.
    package var retryDelayMilliseconds: Int64 = 1000
    /// How long one attempt may take before it counts as a timeout.
    package var timeoutMilliseconds: Int = 5000

    package init() {}
}
