import TLS

/// Where a server listens and the limits of its connections, whatever protocol they speak. Defaults
/// are the documented ones (docs/limits.md); HTTP adds its own (`HTTPServerConfiguration`).
package struct ListenerConfiguration: Sendable {
    package var host: String = "127.0.0.1"
    /// 0 picks a free port; read the bound port from `EventLoopServer.port` after `start()`.
    package var port: Int = 8080
    /// One single-threaded epoll loop per loop, each with its own SO_REUSEPORT listener.
    package var eventLoops: Int = System.coreCount
    /// Time allowed for a TLS handshake (from accept on a TLS listener, from STARTTLS on a stream).
    package var handshakeTimeoutMilliseconds: Int = 10_000
    /// How long a connection may sit without input between exchanges (or without a reply on a stream),
    /// and how long a client may stall reading output, before it is closed.
    package var idleTimeoutMilliseconds: Int = 60_000
    /// Open connections across all loops; beyond it new connections get the service's refusal and are
    /// closed.
    package var maxConnections: Int = 10_000
    /// When set, every connection speaks TLS from its first byte with this certificate; plaintext to
    /// the port gets the service's short plaintext reply and is closed, handshake failures are reported
    /// and closed.
    package var tls: TLSServerContext? = nil

    package init() {}
}
