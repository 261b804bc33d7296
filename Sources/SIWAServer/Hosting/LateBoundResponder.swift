import HTTP
import Locking

/// Forwards to a responder that is installed after the listener is bound: the public URL in the
/// discovery document depends on the port the kernel picked for `--port 0`.
package final class LateBoundResponder: HTTPResponder {
    package init() {}

    private let target = Lock<(any HTTPResponder)?>(nil)

    package func install(_ responder: any HTTPResponder) {
        target.withLock { $0 = responder }
    }

    package func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let responder = target.withLock({ $0 }) else {
            return HTTPResponse(
                status: .serviceUnavailable,
                headers: HTTPHeaders([("Content-Type", "text/plain"), ("Retry-After", "1")]),
                body: Array("starting\n".utf8))
        }
        return responder.respond(to: request)
    }
}
