// STUB: the public API of the server; bodies are filled in by the HTTPServer work.

/// Limits and tunables. Defaults are the documented ones (README "Limits").
public struct HTTPServerConfiguration: Sendable {
    public var host: String = "127.0.0.1"
    /// 0 picks a free port; read the bound port from `HTTPServer.port` after `start()`.
    public var port: Int = 8080
    /// One single-threaded epoll loop per loop, each with its own SO_REUSEPORT listener.
    public var eventLoops: Int = System.coreCount
    public var maxHeaderBytes: Int = 16 * 1024
    public var maxBodyBytes: Int = 1024 * 1024
    public var headerTimeoutMilliseconds: Int = 10_000
    public var bodyTimeoutMilliseconds: Int = 10_000
    public var idleTimeoutMilliseconds: Int = 60_000
    public var maxConnections: Int = 10_000
    public init() {}
}

public enum System {
    public static var coreCount: Int { fatalError("unimplemented") }
}

/// One completed exchange, for request logs (called after the response is written).
public struct HTTPExchangeRecord: Sendable {
    public var method: String
    public var target: String
    public var status: Int
    public var durationMicroseconds: Int
    public var remoteAddress: String
}

/// The HTTP/1.1 server. `start()` binds and returns; `shutdown()` stops accepting, finishes in-flight
/// requests and returns when all loops have exited.
public final class HTTPServer: @unchecked Sendable {
    public init(configuration: HTTPServerConfiguration, responder: any HTTPResponder,
                onExchange: (@Sendable (HTTPExchangeRecord) -> Void)? = nil) { fatalError("unimplemented") }
    public func start() throws { fatalError("unimplemented") }
    /// The bound port (meaningful after `start()`).
    public var port: Int { fatalError("unimplemented") }
    public func shutdown() { fatalError("unimplemented") }
}

/// `application/x-www-form-urlencoded` and query-string decoding (WHATWG URL §5.1: `+` is a space).
public enum URLEncodedForm {
    public struct DecodingError: Error, Sendable, Equatable {
        public var message: String
    }
    /// Decodes `a=1&b=2` into ordered pairs. Bad percent-escapes or invalid UTF-8 throw.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodingError) -> [(name: String, value: String)] {
        fatalError("unimplemented")
    }
    public static func encode(_ pairs: [(String, String)]) -> String { fatalError("unimplemented") }
}
