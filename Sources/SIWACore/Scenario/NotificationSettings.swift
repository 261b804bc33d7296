/// How server-to-server notifications look and are delivered
/// (https://developer.apple.com/documentation/signinwithapple/processing-changes-for-sign-in-with-apple-accounts).
///
/// Defaults follow what Apple really sends: `events` as a JSON string, `event_time` in seconds.
public struct NotificationSettings: Sendable, Equatable {
    /// `events` as a JSON-encoded string (real payloads) or as an object (the docs example).
    public var eventsAsString: Bool = true
    /// `event_time` in milliseconds (seen in a captured event) instead of seconds (docs).
    public var eventTimeInMilliseconds: Bool = false
    /// The account-deletion type name: `account-delete` (WWDC20, many handlers) or `account-deleted`
    /// (Apple's current page).
    public var accountDeletionType: String = "account-delete"
    /// Whether user changes (consent revoked, forwarding switched, account deleted) send notifications.
    public var sendOnUserChanges: Bool = false
    /// Delivery attempts per notification (first try plus retries) on non-200 answers and timeouts.
    public var maxAttempts: Int = 5
    /// Delay before the first retry; doubled for each later one.
    public var retryDelayMilliseconds: Int64 = 1000
    /// How long one attempt may take before it counts as a timeout.
    public var timeoutMilliseconds: Int = 5000

    public init() {}
}
