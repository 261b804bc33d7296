import TLS

/// Limits and tunables. Defaults are the documented ones (README "Limits").
public struct HTTPServerConfiguration: Sendable {
    public var host: String = "127.0.0.1"
    /// 0 picks a free port; read the bound port from `HTTPServer.port` after `start()`.
    public var port: Int = 8080
    /// One single-threaded epoll loop per loop, each with its own SO_REUSEPORT listener.
    public var eventLoops: Int = System.coreCount
    public var maxHeaderBytes: Int = 16 * 1024
    public var maxBodyBytes: Int = 1024 * 1024
    /// Time allowed for a request head once its first bytes arrived, and for a TLS handshake.
    public var headerTimeoutMilliseconds: Int = 10_000
    /// Time allowed for a request body once the head is complete.
    public var bodyTimeoutMilliseconds: Int = 10_000
    /// How long a keep-alive connection may sit between requests, and how long a client may stall
    /// reading a response, before it is closed.
    public var idleTimeoutMilliseconds: Int = 60_000
    /// Open connections across all loops; beyond it new connections get a 503 and are closed.
    public var maxConnections: Int = 10_000
    /// When set, every connection speaks TLS (HTTPS) with this certificate; plain HTTP to the port is
    /// answered with a short plain-text 400 and closed, handshake failures are reported and closed.
    public var tls: TLSServerContext? = nil
    public init() {}
}
