import Locking

/// A response that another thread finishes: a responder that must wait (a round trip to a shared
/// store) answers `HTTPResponse.deferred(_:)` at once, does the work on a worker thread and calls
/// `fulfill(_:)`; the event loop sends the response when it arrives and serves other connections in
/// the meantime. The connection reads nothing more until then, so pipelined requests stay in order.
///
/// A responder that parks the request until something happens (a long poll such as
/// `GET /mock/mail?wait=`) registers `onCancel(_:)`: the event loop calls `cancel()` when the peer
/// closes its side while waiting, and the responder answers at once instead of holding the wait.
package final class DeferredResponse: Sendable, Equatable {
    enum State {
        /// Not fulfilled; the loop's callback once it registered one.
        case pending((@Sendable (HTTPResponse) -> Void)?)
        case fulfilled(HTTPResponse)
        /// Handed to the loop (fulfilled and called back): later calls do nothing.
        case delivered
    }

    private let state = Lock<State>(.pending(nil))
    /// What `cancel()` runs (at most once), and whether it came.
    private let cancellation = Lock<(handler: (@Sendable () -> Void)?, cancelled: Bool)>((nil, false))

    package init() {}

    /// Hands the finished response to the event loop; only the first call counts. A response that is
    /// itself deferred (a long poll answered on a store worker) is forwarded when it finishes, and
    /// cancelling this one cancels it.
    package func fulfill(_ response: HTTPResponse) {
        if case .deferred(let inner) = response.delivery {
            onCancel { inner.cancel() }
            inner.whenFulfilled { self.fulfill($0) }
            return
        }
        let callback: (@Sendable (HTTPResponse) -> Void)? = state.withLock { state in
            switch state {
            case .pending(let callback?):
                state = .delivered
                return callback
            case .pending(nil):
                state = .fulfilled(response)
                return nil
            case .fulfilled, .delivered:
                return nil
            }
        }
        callback?(response)
    }

    /// Calls `callback` once with the response: now if it is there, else from `fulfill` (the event loop;
    /// in-process callers and tests that call a responder directly).
    package func whenFulfilled(_ callback: @escaping @Sendable (HTTPResponse) -> Void) {
        let ready: HTTPResponse? = state.withLock { state in
            switch state {
            case .fulfilled(let response):
                state = .delivered
                return response
            case .pending:
                state = .pending(callback)
                return nil
            case .delivered:
                return nil
            }
        }
        if let ready { callback(ready) }
    }

    /// Registers what to do when the request's peer goes away while waiting (replacing any earlier
    /// handler); runs at once if `cancel()` already came.
    package func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let cancelled = cancellation.withLock { state in
            if !state.cancelled { state.handler = handler }
            return state.cancelled
        }
        if cancelled { handler() }
    }

    /// The peer stopped waiting: runs the `onCancel` handler once (it usually fulfills at once).
    package func cancel() {
        let handler = cancellation.withLock { state in
            defer { state = (nil, true) }
            return state.handler
        }
        handler?()
    }

    package static func == (lhs: DeferredResponse, rhs: DeferredResponse) -> Bool { lhs === rhs }
}

extension HTTPResponse {
    /// The placeholder a responder returns for work finished off the loop (`DeferredResponse`).
    package static func deferred(_ pending: DeferredResponse) -> HTTPResponse {
        HTTPResponse(status: .ok, delivery: .deferred(pending))
    }
}
