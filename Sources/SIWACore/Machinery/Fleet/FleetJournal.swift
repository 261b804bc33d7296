import Locking

/// The fleet's shared request journal (`--shared-journal`, docs/scale-out.md "The fleet journal"): one
/// ordered, capped log of every replica's journal entries, each a JSON text. Opt-in: without it the
/// journal stays per replica. No I/O here; `RedisFleetJournal` keeps it in a Redis stream.
package protocol FleetJournal: AnyObject, Sendable {
    /// Appends records in order; each gets the next fleet-wide sequence number (1, 2, …). The oldest
    /// records beyond the journal's capacity are dropped (approximately: a few more may stay).
    func append(_ records: [String]) throws(StoreUnavailable)

    /// Records with a sequence above `after`, oldest first, at most `count`.
    func records(after: Int, count: Int) throws(StoreUnavailable) -> [(sequence: Int, text: String)]

    /// Removes every record (sequence numbers go on); returns how many there were.
    @discardableResult
    func clear() throws(StoreUnavailable) -> Int
}

/// The fleet journal in this process, for one replica or replicas in one process (tests): the same
/// numbering and capacity rules as the Redis stream, with the cap exact.
package final class LocalFleetJournal: FleetJournal {
    struct State {
        var records: [(sequence: Int, text: String)] = []
        var last = 0
    }

    let state = Lock(State())
    package let capacity: Int

    package init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    package func append(_ records: [String]) throws(StoreUnavailable) {
        state.withLock { state in
            for text in records {
                state.last += 1
                state.records.append((state.last, text))
            }
            if state.records.count > capacity { state.records.removeFirst(state.records.count - capacity) }
        }
    }

    package func records(after: Int, count: Int) throws(StoreUnavailable) -> [(sequence: Int, text: String)] {
        state.withLock { state in Array(state.records.lazy.filter { $0.sequence > after }.prefix(max(1, count))) }
    }

    package func clear() throws(StoreUnavailable) -> Int {
        state.withLock { state in
            defer { state.records.removeAll() }
            return state.records.count
        }
    }
}
