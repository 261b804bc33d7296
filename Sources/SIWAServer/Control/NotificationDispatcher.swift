import Dispatch
import HTTPServer
import JSON
import SIWACore
import Synchronization

/// Delivers server-to-server notifications on a background queue, retrying non-200 answers and
/// timeouts with exponential backoff up to `maxAttempts` (Apple retries; its schedule is unpublished).
///
/// Sending never blocks request handling: `send(_:)` only records and schedules. Every attempt is in
/// `records` (for `GET /mock/notifications`) and in the request journal.
public final class NotificationDispatcher: Sendable {
    /// One notification and its delivery history.
    public struct Record: Sendable {
        public var id: Int
        public var notification: PreparedNotification
        /// `pending`, `delivered` or `failed`.
        public var status: String
        public var attempts: [Attempt]
    }

    /// One POST: the HTTP status (nil on a connection error or timeout) and what happened.
    public struct Attempt: Sendable {
        public var number: Int
        public var timeMilliseconds: Int64
        public var status: Int?
        /// `delivered`, `http_<status>`, `timeout`, `connection_failed: …`.
        public var outcome: String
    }

    struct State {
        var records: [Record] = []
        var nextID = 1
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "siwa-mock.notifications", attributes: .concurrent)
    let provider: AppleIdentityProvider
    let journal: RequestJournal
    let capacity = 500

    public init(provider: AppleIdentityProvider, journal: RequestJournal) {
        self.provider = provider
        self.journal = journal
    }

    /// Records the notifications as pending and schedules their first attempts; returns their ids.
    @discardableResult
    public func send(_ notifications: [PreparedNotification]) -> [Int] {
        var ids: [Int] = []
        for notification in notifications {
            let id = state.withLock { state in
                let id = state.nextID
                state.nextID += 1
                state.records.append(Record(id: id, notification: notification, status: "pending", attempts: []))
                if state.records.count > capacity { state.records.removeFirst(state.records.count - capacity) }
                return id
            }
            ids.append(id)
            queue.async { self.attempt(id: id, number: 1, notification: notification) }
        }
        return ids
    }

    /// Every record, oldest first.
    public var records: [Record] { state.withLock { $0.records } }

    public func record(id: Int) -> Record? { state.withLock { $0.records.first { $0.id == id } } }

    private func attempt(id: Int, number: Int, notification: PreparedNotification) {
        let settings = provider.scenario.settings.notifications
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json")
        let request = HTTPClientRequest(method: "POST", headers: headers, body: notification.body)
        let status: Int?
        let outcome: String
        do {
            let response = try HTTPClient.send(
                request, to: notification.url, timeoutMilliseconds: max(1, settings.timeoutMilliseconds))
            status = response.status
            outcome = response.status == 200 ? "delivered" : "http_\(response.status)"
        } catch {
            status = nil
            outcome = error.kind == .timeout ? "timeout" : "connection_failed: \(error.message)"
        }
        let now = provider.clock.nowMilliseconds
        let delivered = status == 200
        let final = delivered || number >= max(1, settings.maxAttempts)
        state.withLock { state in
            guard let index = state.records.firstIndex(where: { $0.id == id }) else { return }
            state.records[index].attempts.append(
                Attempt(number: number, timeMilliseconds: now, status: status, outcome: outcome))
            if final { state.records[index].status = delivered ? "delivered" : "failed" }
        }
        journal.append(
            JournalEntry(
                sequence: 0, kind: "notification", method: "POST", path: notification.url,
                parameters: [("type", notification.type), ("jti", notification.jti), ("attempt", String(number))],
                clientID: notification.audience, user: notification.userID, outcome: outcome, status: status ?? 0,
                timeMilliseconds: now))
        guard !final else { return }
        let shift = min(number - 1, 16)
        let delay = max(0, settings.retryDelayMilliseconds) << Int64(shift)
        queue.asyncAfter(deadline: .now() + .milliseconds(Int(min(delay, 3_600_000)))) {
            self.attempt(id: id, number: number + 1, notification: notification)
        }
    }
}

extension NotificationDispatcher.Record {
    /// The record as `GET /mock/notifications` shows it.
    public var json: JSONValue {
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
