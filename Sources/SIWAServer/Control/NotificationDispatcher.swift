import Background
import EventLoop
import HTTP
import JSON
import Locking
import SIWACore

/// Delivers server-to-server notifications on the background scheduler, retrying non-200 answers and
/// failed attempts with doubling delays up to `maxAttempts` (Apple retries; its schedule is unpublished).
///
/// Sending never blocks request handling: `send(_:)` only records and schedules. Every attempt is in
/// `records` (for `GET /mock/notifications`) and in the request journal. Receivers are not trusted
/// (docs/notifications.md): each attempt has an overall deadline, reads at most
/// `maximumReplyBytes` of the reply, goes only to destinations the allow-list permits, and at most
/// `concurrencyPerDestination` attempts run at once per `host:port`, so one hanging receiver cannot
/// delay deliveries to the others.
package final class NotificationDispatcher: Sendable {
    /// One notification and its delivery history.
    package struct Record: Sendable {
        package var id: Int
        package var notification: PreparedNotification
        /// `pending`, `delivered` or `failed`.
        package var status: String
        package var attempts: [Attempt]
    }

    /// One POST: the HTTP status (nil on a connection error or timeout) and what happened.
    package struct Attempt: Sendable {
        package var number: Int
        package var timeMilliseconds: Int64
        package var status: Int?
        /// `delivered`, `http_<status>`, `timeout`, `not_allowed`, `connection_failed: …`.
        package var outcome: String
    }

    struct State {
        var records: [Record] = []
        var nextID = 1
        /// Told about every attempt (`SIWAMockTesting`'s notification stream), by token.
        var observers: [Int: @Sendable (Record) -> Void] = [:]
        var nextObserver = 1
    }

    /// Reply bytes read per attempt; the rest is never read (the status line decides the outcome).
    package static let maximumReplyBytes = 64 * 1024
    /// Attempts running at once towards one `host:port`.
    package static let concurrencyPerDestination = 2
    /// The longest wait before a retry, however many attempts came before.
    static let maximumRetryDelayMilliseconds: Int64 = 3_600_000

    private let state = Lock(State())
    let provider: AppleIdentityProvider
    let journal: RequestJournal
    let scheduler: BackgroundScheduler
    /// Where notifications may go (`--notification-allow`); nil: anywhere.
    let allowList: DestinationAllowList?
    let capacity = 500
    /// The scenario's fault rules: a `tamper:` rule can break a notification (docs/rp-check.md).
    let faults: FaultEngine?

    package init(
        provider: AppleIdentityProvider, journal: RequestJournal, scheduler: BackgroundScheduler,
        allowList: DestinationAllowList? = nil, faults: FaultEngine? = nil
    ) {
        self.faults = faults
        self.provider = provider
        self.journal = journal
        self.scheduler = scheduler
        self.allowList = allowList
    }

    /// Records the notifications as pending and schedules their first attempts; returns their ids.
    ///
    /// - Parameter copies: how many times each notification is delivered (same `jti` and payload, one
    ///   record each), as Apple sometimes delivers an event more than once; nil: the scenario's
    ///   `deliveries_per_event`.
    @discardableResult
    package func send(_ notifications: [PreparedNotification], copies: Int? = nil) -> [Int] {
        let count = min(max(copies ?? provider.scenario.settings.notifications.deliveriesPerEvent, 1), 10)
        var ids: [Int] = []
        for original in notifications {
            let notification = tampering(original)
            for _ in 0..<count {
                let id = state.withLock { state in
                    let id = state.nextID
                    state.nextID += 1
                    state.records.append(Record(id: id, notification: notification, status: "pending", attempts: []))
                    if state.records.count > capacity { state.records.removeFirst(state.records.count - capacity) }
                    return id
                }
                ids.append(id)
                schedule(id: id, number: 1, notification: notification, after: 0)
            }
        }
        return ids
    }

    /// Every record, oldest first.
    package var records: [Record] { state.withLock { $0.records } }

    /// Forgets the delivery history (deliveries in flight still run); returns how many records there were.
    @discardableResult
    package func clearRecords() -> Int {
        state.withLock { state in
            defer { state.records.removeAll() }
            return state.records.count
        }
    }

    /// Calls `handler` (on the delivering thread) with the record after each delivery attempt, until
    /// `removeObserver` is called with the returned token.
    package func observeAttempts(_ handler: @escaping @Sendable (Record) -> Void) -> Int {
        state.withLock { state in
            defer { state.nextObserver += 1 }
            state.observers[state.nextObserver] = handler
            return state.nextObserver
        }
    }

    package func removeObserver(_ token: Int) {
        _ = state.withLock { $0.observers.removeValue(forKey: token) }
    }

    package func record(id: Int) -> Record? { state.withLock { $0.records.first { $0.id == id } } }

    private func schedule(id: Int, number: Int, notification: PreparedNotification, after delay: Int64) {
        let lane = BackgroundScheduler.Lane(
            HTTPClient.destination(of: notification.url) ?? notification.url, limit: Self.concurrencyPerDestination)
        scheduler.schedule(after: delay, lane: lane) { [weak self] in
            self?.attempt(id: id, number: number, notification: notification)
        }
    }

    private func attempt(id: Int, number: Int, notification: PreparedNotification) {
        // A record evicted by newer ones (capacity) is not retried.
        guard record(id: id) != nil else { return }
        let settings = provider.scenario.settings.notifications
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json")
        let request = HTTPClientRequest(method: "POST", headers: headers, body: notification.body)
        let status: Int?
        let outcome: String
        var retry = true
        do {
            let response = try HTTPClient.send(
                request, to: notification.url, timeoutMilliseconds: max(1, settings.timeoutMilliseconds),
                maximumBodyBytes: Self.maximumReplyBytes, allowList: allowList)
            status = response.status
            outcome = response.status == 200 ? "delivered" : "http_\(response.status)"
        } catch {
            status = nil
            switch error.kind {
            case .timeout: outcome = "timeout"
            case .destinationNotAllowed:
                outcome = "not_allowed: \(error.message) (--notification-allow)"
                retry = false
            default: outcome = "connection_failed: \(error.message)"
            }
        }
        let now = provider.clock.nowMilliseconds
        let delivered = status == 200
        let final = delivered || !retry || number >= max(1, settings.maxAttempts)
        let (updated, observers) = state.withLock { state -> (Record?, [@Sendable (Record) -> Void]) in
            guard let index = state.records.firstIndex(where: { $0.id == id }) else { return (nil, []) }
            state.records[index].attempts.append(
                Attempt(number: number, timeMilliseconds: now, status: status, outcome: outcome))
            if final { state.records[index].status = delivered ? "delivered" : "failed" }
            return (state.records[index], Array(state.observers.values))
        }
        if let updated { for observer in observers { observer(updated) } }
        journal.append(
            JournalEntry(
                sequence: 0, kind: "notification", method: "POST", path: notification.url,
                parameters: [("type", notification.type), ("jti", notification.jti), ("attempt", String(number))]
                    + (notification.tamper.map { [("tamper", $0.name)] } ?? []),
                clientID: notification.audience, user: notification.userID, outcome: outcome, status: status ?? 0,
                timeMilliseconds: now))
        guard !final else { return }
        schedule(
            id: id, number: number + 1, notification: notification,
            after: Self.retryDelay(after: number, first: settings.retryDelayMilliseconds))
    }

    /// The wait after attempt `number` failed: `first`, doubled for each later attempt, at most an hour.
    static func retryDelay(after number: Int, first: Int64) -> Int64 {
        let first = min(max(0, first), maximumRetryDelayMilliseconds)
        let shift = min(max(0, number - 1), 16)
        return min(first << Int64(shift), maximumRetryDelayMilliseconds)
    }
}

extension NotificationDispatcher.Record {
    /// The record as `GET /mock/notifications` shows it.
    package var json: JSONValue {
        var object = JSONObject()
        object["id"] = .int(Int64(id))
        object["type"] = .string(notification.type)
        object["user"] = .string(notification.userID)
        object["app_group"] = .string(notification.appGroupID)
        object["aud"] = .string(notification.audience)
        object["jti"] = .string(notification.jti)
        object["url"] = .string(notification.url)
        object["status"] = .string(status)
        object["payload"] = .string(notification.payload)
        object["attempts"] = .array(
            attempts.map { attempt in
                .object(
                    JSONObject([
                        ("number", .int(Int64(attempt.number))),
                        ("time", .string(TimeText.rfc3339(milliseconds: attempt.timeMilliseconds))),
                        ("status", attempt.status.map { .int(Int64($0)) } ?? .null),
                        ("outcome", .string(attempt.outcome)),
                    ]))
            })
        return .object(object)
    }
}
