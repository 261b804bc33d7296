import EventLoop
import HTTP
import JSON
import Synchronization

/// A tiny HTTP endpoint that records server-to-server notification bodies. The first `failures`
/// requests are answered with `failureStatus`, later ones with 200 (to exercise retries). `delivery`
/// and `replyBody` make a misbehaving receiver: one that hangs (`.delayed`), drips its reply
/// (`.slowBody`) or answers with a huge body.
package final class NotificationReceiver: HTTPResponder, @unchecked Sendable {
    // @unchecked: `server` is set once in init and only shut down in `stop()`; EventLoopServer is thread-safe.
    private let received = Mutex<[[UInt8]]>([])
    private let remainingFailures: Mutex<Int>
    private let failureStatus: Int
    private let delivery: HTTPResponse.Delivery
    private let replyBody: [UInt8]
    private var server: EventLoopServer?
    package private(set) var port = 0

    package init(
        failures: Int = 0, failureStatus: Int = 503, delivery: HTTPResponse.Delivery = .normal,
        replyBody: [UInt8] = []
    ) throws {
        remainingFailures = Mutex(failures)
        self.failureStatus = failureStatus
        self.delivery = delivery
        self.replyBody = replyBody
        var configuration = HTTPServerConfiguration()
        configuration.listener.port = 0
        configuration.listener.eventLoops = 1
        let server = EventLoopServer(configuration: configuration, responder: self)
        try server.start()
        self.server = server
        port = server.port
    }

    package var url: String { "http://127.0.0.1:\(port)/apple/notifications" }

    package func stop() { server?.shutdown() }

    package func respond(to request: HTTPRequest) -> HTTPResponse {
        let fail = remainingFailures.withLock { remaining in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
        received.withLock { $0.append(request.body) }
        return HTTPResponse(
            status: fail ? HTTPStatus(code: failureStatus) : .ok, body: replyBody, delivery: delivery)
    }

    /// Every body received, failed attempts included.
    package var bodies: [[UInt8]] { received.withLock { $0 } }

    /// The `payload` JWS strings received.
    package var payloads: [String] {
        bodies.compactMap { (try? JSONValue.parse($0))?["payload"]?.stringValue }
    }
}
