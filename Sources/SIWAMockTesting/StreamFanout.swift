import Locking

/// Hands each element to every open stream that wants it (`notifications()`, `credentialRevocations(client:)`).
/// Each stream buffers its newest `capacity` unread elements; ``finish()`` ends every stream, and streams
/// asked for later end at once.
final class StreamFanout<Element: Sendable>: Sendable {
    typealias Continuation = AsyncStream<Element>.Continuation

    struct Subscriber: Sendable {
        var accepts: @Sendable (Element) -> Bool
        var continuation: Continuation
    }

    /// Open streams by number, and the next number; `open` is nil once finished.
    private let state = Lock<(open: [Int: Subscriber]?, next: Int)>(([:], 0))
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Whether any stream is open (to skip work nobody reads).
    var isObserved: Bool { state.withLock { !($0.open?.isEmpty ?? true) } }

    func stream(where accepts: @escaping @Sendable (Element) -> Bool = { _ in true }) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Element.self, bufferingPolicy: .bufferingNewest(capacity))
        let id = state.withLock { state -> Int? in
            guard state.open != nil else { return nil }
            state.next += 1
            state.open?[state.next] = Subscriber(accepts: accepts, continuation: continuation)
            return state.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    func yield(_ element: Element) {
        let subscribers = state.withLock { $0.open.map { Array($0.values) } ?? [] }
        for subscriber in subscribers where subscriber.accepts(element) { subscriber.continuation.yield(element) }
    }

    func finish() {
        let subscribers = state.withLock { state in
            defer { state.open = nil }
            return state.open.map { Array($0.values) } ?? []
        }
        for subscriber in subscribers { subscriber.continuation.finish() }
    }

    private func remove(_ id: Int) {
        _ = state.withLock { $0.open?.removeValue(forKey: id) }
    }
}
