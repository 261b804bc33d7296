import HTTP
import Locking

/// Forwards to a responder that is installed after the listener is bound: the public URL in the
/// discovery document depends on the port the kernel picked for `--port 0`.
package final class LateBoundResponder: HTTPResponder {
    package init() {}

    private let target = Lock<(any HTTPResponder)?>(nil)

    /// The log field marking the 503 answered before the mock is installed.
    package static let startingField = "starting"

    package func install(_ responder: any HTTPResponder) {
        target.withLock { $0 = responder }
    }

    package func respond(to request: consuming HTTPRequest) -> HTTPResponse {
        guard let responder = target.withLock({ $0 }) else {
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
