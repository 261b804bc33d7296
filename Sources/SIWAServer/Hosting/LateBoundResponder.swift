import HTTP
import Synchronization

/// Forwards to a responder that is installed after the listener is bound: the public URL in the
/// discovery document depends on the port the kernel picked for `--port 0`.
package final class LateBoundResponder: HTTPResponder, @unchecked Sendable {
    // @unchecked: `target` is written once, before `state` is released as `installed`, and read only
    // after `state` is acquired as `installed`; that release/acquire pair orders the write before every
    // read, so each request costs one atomic load instead of a lock.
    package init() {}

    private static let empty = 0
    private static let installing = 1
    private static let installed = 2
    private let state = Atomic<Int>(LateBoundResponder.empty)
    private nonisolated(unsafe) var target: (any HTTPResponder)?

    /// The log field marking the 503 answered before the mock is installed.
    package static let startingField = "starting"

    /// Installs the responder; once per instance (a second call is a programming error and traps).
    package func install(_ responder: any HTTPResponder) {
        let claimed = state.compareExchange(expected: Self.empty, desired: Self.installing, ordering: .acquiring)
        precondition(claimed.exchanged, "LateBoundResponder: install called twice")
        target = responder
        state.store(Self.installed, ordering: .releasing)
    }

    package func respond(to request: consuming HTTPRequest) -> HTTPResponse {
        guard state.load(ordering: .acquiring) == Self.installed, let responder = target else {
            var response = HTTPResponse(
                status: .serviceUnavailable,
                headers: HTTPHeaders([("Content-Type", "text/plain"), ("Retry-After", "1")]),
                body: Array("starting\n".utf8))
            // Expected while the mock starts (a `health --wait` poll): the request log keeps it at debug.
            response.logFields[Self.startingField] = "true"
            return response
        }
        return responder.respond(to: request)
    }
}
