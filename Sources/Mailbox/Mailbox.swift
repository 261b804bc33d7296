import Locking

/// What the relay delivered and refused, newest last, bounded in entries and bytes (oldest dropped,
/// docs/limits.md), plus the per-address daily counters behind Apple's 100-a-day limit (kept apart
/// from the records, so dropping old records never resets a count).
package final class Mailbox: Sendable {
    package struct Limits: Sendable {
        package var maxRecords = 1000
        package var maxBytes = 64 * 1024 * 1024
        /// Requests parked by `GET /mock/mail?wait=` at once (`MailWaiters`).
        package var maxWaiters = 64
        package init() {}
    }

    struct State {
        var records = MailRecordQueue()
        /// Records delivered (`outcome == .accepted`) among `records`: Mailpit's messages.
        var delivered = 0
        var bytes = 0
        var nextID = 1
        /// relay address (lowercased) → (UTC day number, messages that day).
        var daily: [String: (day: Int64, count: Int)] = [:]
        var dropped = 0
    }

    let state = Lock(State())
    package let limits: Limits
    /// Requests waiting for a message (`GET /mock/mail?wait=`), woken as records are stored.
    package let waiters: MailWaiters

    package init(limits: Limits = Limits()) {
        self.limits = limits
        self.waiters = MailWaiters(limit: limits.maxWaiters)
    }

    /// The mock clock's UTC day.
    static func day(_ milliseconds: Int64) -> Int64 {
        milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
    }

    /// Messages `relayAddress` took on the day of `milliseconds`.
    package func deliveredToday(_ relayAddress: String, at milliseconds: Int64) -> Int {
        let key = relayAddress.lowercased()
        return state.withLock { state in
            guard let entry = state.daily[key], entry.day == Self.day(milliseconds) else { return 0 }
            return entry.count
        }
    }

    /// Counts one message for `relayAddress` if it is under `limit` today; false when it is not.
    /// Check and count are one step, so parallel connections cannot pass the limit together.
    package func reserveDelivery(_ relayAddress: String, at milliseconds: Int64, limit: Int) -> Bool {
        let key = relayAddress.lowercased()
        let today = Self.day(milliseconds)
        return state.withLock { state in
            var entry = state.daily[key] ?? (today, 0)
            if entry.day != today { entry = (today, 0) }
            guard entry.count < limit else { return false }
            entry.count += 1
            state.daily[key] = entry
            return true
        }
    }

    /// Gives back one message `reserveDelivery` counted (the message was then refused after all).
    package func releaseDelivery(_ relayAddress: String, at milliseconds: Int64) {
        let key = relayAddress.lowercased()
        state.withLock { state in
            guard var entry = state.daily[key], entry.day == Self.day(milliseconds), entry.count > 0 else { return }
            entry.count -= 1
            state.daily[key] = entry
        }
    }

    /// `count` fresh ids (`m7`, `m8`, …), consecutive, for records added later with `add(_:)`: a
    /// reply can name every copy of a message before the copies are stored.
    package func takeIDs(_ count: Int) -> [String] {
        state.withLock { state in
            defer { state.nextID += count }
            return (0..<count).map { "m\(state.nextID + $0)" }
        }
    }

    /// Stores a record under a fresh id (returned), dropping the oldest beyond the limits.
    @discardableResult
    package func add(_ make: (String) -> MailRecord) -> MailRecord {
        add(make(takeIDs(1)[0]))
    }

    /// Stores a record whose id came from `takeIDs`, dropping the oldest beyond the limits, and wakes
    /// the waiters it matches. A single record larger than the byte cap keeps its metadata and loses
    /// its raw bytes.
    @discardableResult
    package func add(_ record: MailRecord) -> MailRecord {
        let stored = store(record.indexed())
        waiters.stored(stored)
        return stored
    }

    private func store(_ record: MailRecord) -> MailRecord {
        state.withLock { state in
            var record = record
            if record.approximateBytes > limits.maxBytes { record.raw = [] }
            state.records.append(record)
            state.bytes += record.approximateBytes
            if record.outcome == .accepted { state.delivered += 1 }
            var drop = 0
            while state.records.count - drop > limits.maxRecords || state.bytes > limits.maxBytes {
                state.bytes -= state.records[drop].approximateBytes
                if state.records[drop].outcome == .accepted { state.delivered -= 1 }
                drop += 1
            }
            if drop > 0 {
                state.records.removeFirst(drop)
                state.dropped += drop
            }
            return record
        }
    }

    package func record(id: String) -> MailRecord? {
        state.withLock { state in state.records.first { $0.id == id } }
    }

    /// The records as they are now: a copy of the queue, which shares its storage until the next
    /// store, so taking it is O(1) and filters run outside the lock (a search over every record never
    /// holds up the SMTP listener storing one).
    var snapshot: MailRecordQueue { state.withLock { $0.records } }

    /// Whether any record passes `filter`.
    package func contains(where filter: (MailRecord) -> Bool) -> Bool {
        snapshot.contains(where: filter)
    }

    /// Records oldest first that pass `filter`.
    package func records(where filter: (MailRecord) -> Bool = { _ in true }) -> [MailRecord] {
        snapshot.filter(filter)
    }

    /// The newest record that passes `filter`, looking from the newest back.
    package func newest(where filter: (MailRecord) -> Bool) -> MailRecord? {
        snapshot.last(where: filter)
    }

    /// Delivered records held now (Mailpit's messages).
    package var deliveredCount: Int { state.withLock { $0.delivered } }

    /// A page of the delivered records that pass `search` (every one without), newest first: `limit`
    /// of them after skipping `start`, and how many pass in all. Without a search only the records up
    /// to the page's end are visited (the count is kept as records come and go); a search reads every
    /// delivered record's index.
    package func deliveredPage(passing search: MailpitSearch?, start: Int, limit: Int) -> (
        records: [MailRecord], matching: Int
    ) {
        let (records, delivered) = state.withLock { ($0.records, $0.delivered) }
        var page: [MailRecord] = []
        var matching = 0
        for record in records.reversed() where record.outcome == .accepted {
            if let search, !search.matches(record) { continue }
            if matching >= start && page.count < limit { page.append(record) }
            matching += 1
            if search == nil && page.count == limit { return (page, delivered) }
        }
        return (page, matching)
    }

    /// Bytes held and records dropped so far (for `GET /mock/mail`).
    package var usage: (records: Int, bytes: Int, dropped: Int) {
        state.withLock { ($0.records.count, $0.bytes, $0.dropped) }
    }

    /// Forgets the records with these ids (unknown ids are skipped); returns how many went.
    @discardableResult
    package func remove(ids: Set<String>) -> Int {
        state.withLock { state in
            let gone = state.records.filter { ids.contains($0.id) }
            guard !gone.isEmpty else { return 0 }
            state.records.removeAll { ids.contains($0.id) }
            state.bytes -= gone.reduce(0) { $0 + $1.approximateBytes }
            state.delivered -= gone.count(where: { $0.outcome == .accepted })
            return gone.count
        }
    }

    /// Forgets every record (the daily counters stay: the relay still remembers today's traffic);
    /// returns how many there were.
    @discardableResult
    package func clear(resettingCounters: Bool = false) -> Int {
        state.withLock { state in
            let count = state.records.count
            state.records.removeAll()
            state.delivered = 0
            state.bytes = 0
            if resettingCounters { state.daily.removeAll() }
            return count
        }
    }
}
