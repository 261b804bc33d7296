/// What a connection's session sees of whatever carries its bytes: the epoll loop (`EpollLoop`) in a
/// server, an `EmbeddedConnection` in a test. Sessions (`ConnectionSession`) only ever call this, so a
/// protocol's connection logic — keep-alive, pipelining, interim responses, deadlines, faults — runs the
/// same fed from a socket or from a test's bytes and clock (swift-nio's `EmbeddedChannel` plays the same
/// part for its handlers).
///
/// A conformer provides the transport's primitives below; everything a connection does with them — its
/// phases, flushing, lingering, holding, dribbling, parking, deadlines firing — is written once, in
/// `ConnectionContext+Phases.swift`, for both.
package protocol ConnectionContext: AnyObject {
    /// Monotonic nanoseconds at the start of the current pass (the test's clock in an embedded one).
    var now: Int64 { get }
    /// Set once shutdown began: sessions close idle connections instead of waiting for more input.
    var isStopping: Bool { get }
    /// The listener's idle (and write-stall) timeout, in nanoseconds.
    var idleTimeout: Int64 { get }
    /// The listener's TLS handshake timeout, in nanoseconds.
    var handshakeTimeout: Int64 { get }
    /// Where other threads post to a parked connection (`park`).
    var inbox: LoopInbox { get }

    /// Whether the connection is still open on this transport.
    func isOpen(_ connection: Connection) -> Bool
    /// Sends queued bytes (at most `limit`) without blocking.
    func transmit(_ connection: Connection, limit: Int) -> FlushResult
    /// Which readiness events to watch (epoll's `EPOLLIN`/`EPOLLOUT`/`EPOLLRDHUP` bits).
    func setInterest(_ connection: Connection, _ events: UInt32)
    /// Sets the connection's single deadline (`fire(_:for:)` runs when it passes).
    func setDeadline(_ connection: Connection, _ deadline: Int64, _ kind: Connection.DeadlineKind)
    /// Forgets the connection, tells its session (`ConnectionSession.closed`), and closes it.
    func close(_ connection: Connection)
    /// Shuts the write side (FIN) so the peer sees the end of the output.
    func shutdownWrite(_ connection: Connection)
    /// Closes with RST (SO_LINGER 0) instead of FIN, without sending anything more.
    func reset(_ connection: Connection)
    /// Reports a connection-level event (a TLS failure) to the server's diagnostics.
    func report(_ kind: ConnectionDiagnostic.Kind, _ connection: Connection, _ message: String)
}

/// What one attempt to send queued output came to.
package enum FlushResult {
    /// Everything queued was sent.
    case complete
    /// The socket buffer is full (or the byte limit was reached); bytes remain queued.
    case pending
    /// The peer is gone; the connection was closed.
    case closed
}
