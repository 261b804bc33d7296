import JSON
import Locking
import SIWACore

/// One request the mock received (or one notification delivery attempt it made).
package struct JournalEntry: Sendable, Equatable {
    /// Increasing number, unique for the server's lifetime (assigned by `RequestJournal.append`).
    package var sequence: Int = 0
    /// `request` for incoming HTTP, `notification` for an outgoing delivery attempt.
    package var kind: String
    package var method: String
    package var path: String
    /// Selected parameters; secrets (codes, tokens, client secrets) only as `sha256:` fingerprints.
    package var parameters: [(name: String, value: String)]
    package var clientID: String?
    /// The scenario user the request concerned (login hint, or the owner of the code or token).
    package var user: String?
    /// `ok`, or the error code answered (`invalid_grant`, …), or a delivery outcome.
    package var outcome: String
    package var status: Int
    /// Mock-clock time, milliseconds since the epoch.
    package var timeMilliseconds: Int64
    /// Why the request was refused, in words (never sent to the client); nil when it succeeded.
    package var reason: String?

    // Built by the synthesized memberwise init (`sequence` and `reason` may be left out): a hand-written
    // one that assigns the Optional fields builds the entry, then copies it field by field (Swift 6.3),
    // on every request the journal records.

    package static func == (lhs: JournalEntry, rhs: JournalEntry) -> Bool {
        lhs.sequence == rhs.sequence && lhs.kind == rhs.kind && lhs.method == rhs.method && lhs.path == rhs.path
            && lhs.parameters.map(\.name) == rhs.parameters.map(\.name)
            && lhs.parameters.map(\.value) == rhs.parameters.map(\.value) && lhs.clientID == rhs.clientID
            && lhs.user == rhs.user && lhs.outcome == rhs.outcome && lhs.status == rhs.status
            && lhs.timeMilliseconds == rhs.timeMilliseconds && lhs.reason == rhs.reason
    }

    /// The entry as the control API shows it.
    package var json: JSONValue {
        // Built from one list of pairs (sized once): a journal page renders up to 1,000 of these.
        var pairs: [(String, JSONValue)] = [
            ("sequence", .int(Int64(sequence))), ("kind", .string(kind)),
            ("time", .string(TimeText.rfc3339(milliseconds: timeMilliseconds))), ("method", .string(method)),
            ("path", .string(path)),
            ("parameters", .object(JSONObject(parameters.map { ($0.name, .string($0.value)) }))),
            ("client_id", clientID.map { .string($0) } ?? .null), ("user", user.map { .string($0) } ?? .null),
            ("status", .int(Int64(status))), ("outcome", .string(outcome)),
        ]
        if let reason { pairs.append(("reason", .string(reason))) }
        return .object(JSONObject(pairs))
    }
}

extension JournalEntry {
    /// The longest value kept verbatim; longer ones keep a prefix, their length and a fingerprint.
    package static let maximumValueBytes = 256
    /// The most parameters kept per entry (the recorder shows 23 names; repeats beyond are dropped).
    package static let maximumParameters = 24
    /// Upper bound of `approximateBytes` for any entry, so the journal's memory is capped by its capacity.
    package static let maximumBytes = (maximumParameters + 6) * (maximumValueBytes + 96) + 256

    /// The entry with every text field within `maximumValueBytes`, at most `maximumParameters`
    /// parameters: what the journal keeps, so a 1 MiB `nonce` costs ~100 bytes, not 1 MiB per entry.
    package func bounded() -> JournalEntry {
        if isBounded { return self }
        var entry = self
        entry.method = Self.bounded(method)
        entry.path = Self.bounded(path)
        entry.parameters = parameters.prefix(Self.maximumParameters).map {
            (Self.bounded($0.name), Self.bounded($0.value))
        }
        entry.clientID = clientID.map(Self.bounded)
        entry.user = user.map(Self.bounded)
        entry.outcome = Self.bounded(outcome)
        return entry
    }

    /// Whether `bounded()` would change nothing (the usual entry: short values, few parameters).
    var isBounded: Bool {
        func short(_ text: String) -> Bool { text.utf8.count <= Self.maximumValueBytes }
        return parameters.count <= Self.maximumParameters && short(method) && short(path) && short(outcome)
            && short(clientID ?? "") && short(user ?? "")
            && parameters.allSatisfy { short($0.name) && short($0.value) }
    }

    /// Approximate bytes this entry holds (strings plus a fixed allowance per field).
    package var approximateBytes: Int {
        let texts = [method, path, clientID ?? "", user ?? "", outcome] + parameters.flatMap { [$0.name, $0.value] }
        return texts.reduce(0) { $0 + $1.utf8.count + 32 } + 96
    }

    /// `value`, or for a long one its first 64 bytes (whole characters), `…`, its length and fingerprint.
    static func bounded(_ value: String) -> String {
        guard value.utf8.count > maximumValueBytes else { return value }
        var prefix = Substring(value.prefix(64))
        while prefix.utf8.count > 64 { prefix = prefix.dropLast() }
        return "\(prefix)…(\(value.utf8.count) bytes, \(SecretFingerprint.of(value)))"
    }
}

/// A bounded, thread-safe log of requests (the newest `capacity` entries), for `GET /mock/requests`.
///
/// A ring buffer behind one lock: appending is O(1) on the request path.
package final class RequestJournal: Sendable {
    struct State {
        var ring: [JournalEntry] = []
        /// Index of the oldest entry once the ring is full.
        var head = 0
        var nextSequence = 1

        /// Entries oldest first.
        var ordered: [JournalEntry] { Array(ring[head...] + ring[..<head]) }

        /// Numbers `entry` and stores it, replacing the oldest beyond `capacity`; returns its number.
        mutating func insert(_ entry: consuming JournalEntry, capacity: Int) -> Int {
            let sequence = nextSequence
            entry.sequence = sequence
            nextSequence += 1
            if ring.count < capacity {
                ring.append(consume entry)
            } else {
                ring[head] = consume entry
                head = (head + 1) % capacity
            }
            return sequence
        }
    }

    private let state = Lock(State())
    package let capacity: Int
    /// With `--shared-journal`: receives every entry for the fleet journal (`GET /mock/requests?scope=fleet`).
    package let fleet: FleetJournalWriter?

    package init(capacity: Int = 1000, fleet: FleetJournalWriter? = nil) {
        self.capacity = max(1, capacity)
        self.fleet = fleet
    }

    /// Appends an entry (its `sequence` is assigned here), replacing the oldest beyond capacity. Long
    /// values are cut (`JournalEntry.bounded()`), so the journal holds at most
    /// `capacity × JournalEntry.maximumBytes` bytes.
    package func append(_ entry: consuming JournalEntry) {
        if !entry.isBounded { entry = entry.bounded() }
        let capacity = capacity
        // The entry moves into the ring (no copy) unless the fleet journal needs one.
        guard let fleet else {
            _ = state.withLock(moving: entry) { state, entry in state.insert(entry, capacity: capacity) }
            return
        }
        var sequenced = copy entry
        sequenced.sequence = state.withLock(moving: entry) { state, entry in state.insert(entry, capacity: capacity) }
        fleet.enqueue(sequenced)
    }

    /// Entries oldest first, filtered by exact path, client id and user (any may be nil) and by
    /// `including`, only those with a sequence above `after`, at most `limit` of them.
    package func entries(
        path: String? = nil, clientID: String? = nil, user: String? = nil, after: Int = 0, limit: Int = .max,
        including: (JournalEntry) -> Bool = { _ in true }
    ) -> [JournalEntry] {
        var selected: [JournalEntry] = []
        for entry in state.withLock({ $0.ordered }) where selected.count < limit {
            if entry.sequence > after && (path == nil || entry.path == path)
                && (clientID == nil || entry.clientID == clientID) && (user == nil || entry.user == user)
                && including(entry)
            {
                selected.append(entry)
            }
        }
        return selected
    }

    /// Forgets every entry; returns how many there were.
    @discardableResult
    package func clear() -> Int {
        state.withLock { state in
            let count = state.ring.count
            state.ring.removeAll()
            state.head = 0
            return count
        }
    }
}
