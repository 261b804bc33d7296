/// The keys of one table in the order they were stored, with their deadlines, so collecting expired
/// entries costs what expired rather than a walk of the whole table under the store's lock (the hour-long
/// soak of bench/soak.py showed that walk in the tail latency as the code table grew; bench/RESULTS.md).
///
/// Entries are never removed from the middle: one whose key was removed or stored again (a new
/// `sequence`) is skipped when it reaches the front. Deadlines are in insertion order while every entry
/// has the same lifetime and the clock only moves forward; when they are not (a clock set backwards), an
/// expired entry waits behind a live one until that one expires — later collection, never a wrong answer,
/// since every lookup checks the deadline itself — and the tables' caps still bound the memory.
struct ExpiryQueue: Sendable {
    struct Entry: Sendable {
        var expiresAt: Int64
        var key: String
        var sequence: UInt64
    }

    private var entries: [Entry] = []
    private var head = 0

    /// Entries not yet popped, stale ones included.
    var count: Int { entries.count - head }

    mutating func append(_ key: String, expiresAt: Int64, sequence: UInt64) {
        entries.append(Entry(expiresAt: expiresAt, key: key, sequence: sequence))
    }

    /// Removes and returns the entries at the front whose deadline is at or before `now`.
    mutating func popExpired(now: Int64) -> ArraySlice<Entry> {
        compactIfMostlyPopped()
        let start = head
        while head < entries.count && entries[head].expiresAt <= now { head += 1 }
        return entries[start..<head]
    }

    /// Starts again from `live` (ordered by sequence): used when stale entries outnumber live ones.
    mutating func rebuild(_ live: [Entry]) {
        entries = live.sorted { $0.sequence < $1.sequence }
        head = 0
    }

    private mutating func compactIfMostlyPopped() {
        if head >= 1024 && head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}
