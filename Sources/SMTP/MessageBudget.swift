import Synchronization

/// Bytes held by messages still being received, shared by every session of one listener: a bound
/// on what many half-sent messages can take together (docs/limits.md), on top of each message's own
/// size limit. Sessions reserve before they grow their buffer and give the bytes back when the
/// message ends or the connection goes.
package final class MessageBudget: Sendable {
    package let limit: Int
    let used = Atomic<Int>(0)

    package init(limit: Int) { self.limit = limit }

    /// Bytes reserved now.
    package var inUse: Int { used.load(ordering: .relaxed) }

    /// Takes `bytes` if they fit under the limit; false (and nothing taken) when they do not.
    func reserve(_ bytes: Int) -> Bool {
        var current = used.load(ordering: .relaxed)
        while true {
            guard bytes <= limit - current else { return false }
            let (exchanged, original) = used.compareExchange(
                expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    func release(_ bytes: Int) {
        if bytes > 0 { used.subtract(bytes, ordering: .relaxed) }
    }
}
