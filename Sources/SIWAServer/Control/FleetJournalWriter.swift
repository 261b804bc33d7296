import Background
import JSON
import Locking
import SIWACore

/// Copies this replica's journal entries to the fleet journal (`--shared-journal`, docs/scale-out.md
/// "The fleet journal"). `RequestJournal` hands each entry to `enqueue` (O(1) under a lock, on the
/// request path, no I/O); a background job sends what is pending every 100 ms, up to 1,000 entries per
/// pipelined round trip, one flush at a time so this replica's entries reach the store in order. While
/// the store is unreachable entries wait, at most `maximumPending` of them and `maximumPendingBytes`;
/// beyond that the newest are dropped and counted (`dropped`) — a request never waits for the journal.
package final class FleetJournalWriter: Sendable {
    package let journal: any FleetJournal
    /// Names this replica in every record it writes (`replica`).
    package let replica: String
    /// The most entries waiting for the store.
    package static let maximumPending = 10_000
    /// The most bytes of entries waiting (`JournalEntry.approximateBytes`): 8 MiB, so 10,000 entries of
    /// the usual few hundred bytes fit and entries near `JournalEntry.maximumBytes` cannot reach 100 MiB.
    package static let maximumPendingBytes = 8 << 20
    /// The most entries per round trip.
    static let batchSize = 1_000
    /// How often pending entries are sent, in milliseconds.
    package static let intervalMilliseconds: Int64 = 100

    struct State {
        var pending: [JournalEntry] = []
        var pendingBytes = 0
        var dropped = 0

        /// Drops the newest entries beyond the bounds.
        mutating func trim() {
            while pending.count > FleetJournalWriter.maximumPending
                || pendingBytes > FleetJournalWriter.maximumPendingBytes,
                let newest = pending.popLast()
            {
                pendingBytes -= newest.approximateBytes
                dropped += 1
            }
        }
    }

    let state = Lock(State())
    /// Held for a whole flush: the tick and a reader's flush never send two batches at once.
    let sending = Lock(())

    package init(journal: any FleetJournal, replica: String) {
        self.journal = journal
        self.replica = replica
    }

    /// Queues an entry (already bounded and numbered by `RequestJournal`).
    package func enqueue(_ entry: JournalEntry) {
        let bytes = entry.approximateBytes
        state.withLock { state in
            if state.pending.count < Self.maximumPending && state.pendingBytes + bytes <= Self.maximumPendingBytes {
                state.pending.append(entry)
                state.pendingBytes += bytes
            } else {
                state.dropped += 1
            }
        }
    }

    /// Entries dropped because the bounds were reached.
    package var dropped: Int { state.withLock { $0.dropped } }

    /// Entries waiting to be sent.
    package var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Sends every pending entry, oldest first, in batches; returns how many were sent. On a store
    /// failure the unsent batch goes back to the front of the queue (the newest entries beyond the
    /// bounds are dropped) and the error is thrown.
    @discardableResult
    package func flush() throws(StoreUnavailable) -> Int {
        try sending.withLock { _ throws(StoreUnavailable) -> Int in
            var sent = 0
            while true {
                let batch = state.withLock { state -> [JournalEntry] in
                    let count = min(Self.batchSize, state.pending.count)
                    let batch = Array(state.pending.prefix(count))
                    state.pending.removeFirst(count)
                    state.pendingBytes -= batch.reduce(0) { $0 + $1.approximateBytes }
                    return batch
                }
                if batch.isEmpty { return sent }
                do throws(StoreUnavailable) {
                    try journal.append(batch.map(record))
                } catch {
                    state.withLock { state in
                        state.pending.insert(contentsOf: batch, at: 0)
                        state.pendingBytes += batch.reduce(0) { $0 + $1.approximateBytes }
                        state.trim()
                    }
                    throw error
                }
                sent += batch.count
            }
        }
    }

    /// Flushes every `intervalMilliseconds` on `scheduler` (`tick`). - Returns: false when no thread could
    /// be started.
    package func start(on scheduler: BackgroundScheduler, log: @escaping @Sendable (String) -> Void) -> Bool {
        scheduler.repeatEvery(Self.intervalMilliseconds) { [self] in tick(log: log) }
    }

    /// What the writer's log has said: whether an outage is going on, and how many drops it reported.
    let reported = Lock((outage: false, dropped: 0))

    /// One flush, logging the first failure of an outage, the recovery, and entries dropped since the
    /// last report (once per tick at most, never per entry).
    package func tick(log: (String) -> Void) {
        do throws(StoreUnavailable) {
            try flush()
            let dropped = self.dropped
            let (recovered, lost) = reported.withLock { state -> (Bool, Int) in
                defer { state = (false, dropped) }
                return (state.outage, dropped - state.dropped)
            }
            guard recovered || lost > 0 else { return }
            log(
                (recovered ? "fleet journal: the store answers again; pending entries sent" : "fleet journal:")
                    + (lost > 0 ? " \(lost) entries dropped (more than 10000 or 8 MiB waited)" : ""))
        } catch {
            let began = reported.withLock { state -> Bool in
                defer { state.outage = true }
                return !state.outage
            }
            if began { log("fleet journal: cannot write to the store (\(error)); entries wait, up to 10000 or 8 MiB") }
        }
    }

    /// The entry as the fleet journal keeps it: the journal's JSON with `replica` and this replica's own
    /// sequence (`replica_sequence`) in place of `sequence`, which the fleet journal assigns.
    func record(_ entry: JournalEntry) -> String {
        guard case .object(let object) = entry.json else { return "{}" }
        var pairs: [(String, JSONValue)] = [
            ("replica", .string(replica)), ("replica_sequence", .int(Int64(entry.sequence))),
        ]
        for (key, value) in object.pairs where key != "sequence" { pairs.append((key, value)) }
        return JSONValue.object(JSONObject(pairs)).serializedString()
    }

    /// A record read back: the object with the fleet's `sequence` first; nil for a text that is not an
    /// object (never written by a mock).
    package static func entry(sequence: Int, text: String) -> JSONObject? {
        guard case .object(let object)? = try? JSONValue.parse(text) else { return nil }
        var pairs: [(String, JSONValue)] = [("sequence", .int(Int64(sequence)))]
        for (key, value) in object.pairs where key != "sequence" { pairs.append((key, value)) }
        return JSONObject(pairs)
    }
}
