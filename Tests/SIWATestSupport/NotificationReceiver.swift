import HTTPServer
import JSON
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP endpoint that records server-to-server notification bodies. The first `failures`
/// requests are answered with `failureStatus`, later ones with 200 (to exercise retries).
public final class NotificationReceiver: HTTPResponder, @unchecked Sendable {
    // @unchecked: `server` is set once in init and only shut down in `stop()`; HTTPServer is thread-safe.
    private let received = Mutex<[[UInt8]]>([])
    private let remainingFailures: Mutex<Int>
    private let failureStatus: Int
    private var server: HTTPServer?
    public private(set) var port = 0

    public init(failures: Int = 0, failureStatus: Int = 503) throws {
        remainingFailures = Mutex(failures)
        self.failureStatus = failureStatus
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.eventLoops = 1
        let server = HTTPServer(configuration: configuration, responder: self)
        try server.start()
        self.server = server
        port = server.port
    }

    public var url: String { "http://127.0.0.1:\(port)/apple/notifications" }

    public func stop() { server?.shutdown() }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let fail = remainingFailures.withLock { remaining in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
        received.withLock { $0.append(request.body) }
        return HTTPResponse(status: fail ? HTTPStatus(code: failureStatus) : .ok)
    }

    /// Every body received, failed attempts included.
    public var bodies: [[UInt8]] { received.withLock { $0 } }

    /// The `payload` JWS strings received.
    public var payloads: [String] {
        bodies.compactMap { (try? JSONValue.parse($0))?["payload"]?.stringValue }
    }

    /// Polls until `count` bodies arrived or `seconds` passed; returns whether they did.
    public func waitFor(count: Int, seconds: Int = 10) -> Bool {
        for _ in 0..<(seconds * 100) {
            if bodies.count >= count { return true }
            var request = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            nanosleep(&request, nil)
        }
        return bodies.count >= count
    }
}
