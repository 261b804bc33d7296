import Locking

/// What other threads post to parked connections (`ConnectionContext.park`), waiting for their loop;
/// posting wakes the loop's epoll (an embedded connection has no eventfd: its test delivers the posts).
package final class LoopInbox: Sendable {
    struct Item {
        var fd: Int32
        var serial: UInt64
        var payload: any Sendable
    }

    private let state = Lock<(items: [Item], closed: Bool)>(([], false))
    private let wakeFD: Int32?

    init(wakeFD: Int32?) { self.wakeFD = wakeFD }

    /// Queues a post for the connection and wakes the loop; dropped once the loop has ended.
    func post(_ item: Item) {
        state.withLock { state in
            guard !state.closed else { return }
            state.items.append(item)
            // Written under the lock, so never after `close()` (the server closes the eventfd later).
            if let wakeFD { Syscall.signalEvent(wakeFD) }
        }
    }

    func take() -> [Item] {
        state.withLock { state in
            defer { state.items.removeAll() }
            return state.items
        }
    }

    /// The loop ended: later posts are dropped.
    func close() { state.withLock { $0.closed = true } }
}
