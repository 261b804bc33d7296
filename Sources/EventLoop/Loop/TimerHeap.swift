/// A binary min-heap of connection wake-ups, one per loop.
///
/// Entries are only hints: the connection's own `deadline` decides whether anything fires, so stale
/// entries (connection closed, deadline moved) are dropped when popped. See `EpollLoop+Timers.swift`.
struct TimerHeap {
    struct Entry {
        var deadline: Int64
        var fd: Int32
        var serial: UInt64
    }

    private(set) var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }
    var earliest: Int64? { entries.first?.deadline }

    mutating func push(_ entry: Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].deadline < entries[parent].deadline else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry if it is due at `now`.
    mutating func popDue(now: Int64) -> Entry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        let last = entries.removeLast()
        if entries.isEmpty { return first }
        entries[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < entries.count && entries[left].deadline < entries[smallest].deadline { smallest = left }
            if right < entries.count && entries[right].deadline < entries[smallest].deadline { smallest = right }
            if smallest == parent { break }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
