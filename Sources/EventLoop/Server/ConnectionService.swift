/// The protocol a server speaks, as its event loops drive it: HTTP (the HTTP module's service) or a
/// `StreamService` (SMTP). The loop owns every descriptor and makes every syscall — accept, read,
/// TLS, queueing and flushing, lingering close, timers, the connection limit — and hands the
/// protocol plaintext; the protocol answers by queueing bytes and moving the connection between
/// the loop's phases (`Connection.Phase`).
package protocol ConnectionService: Sendable {
    /// What one loop keeps for this service; called once on each loop's thread before it runs.
    func makeLoopHandler() -> any LoopHandler
    /// What a connection refused at the connection limit gets before it is closed (HTTP 503, SMTP 421).
    var overCapacityReply: [UInt8] { get }
    /// What a peer speaking plaintext to a TLS listener gets before it is closed (a readable HTTP 400).
    var plaintextOnTLSReply: [UInt8] { get }
}

/// One loop's side of a service: makes each connection's session and hears the end of each pass over
/// ready events (so per-exchange reports go out in one batch). Used only on its loop's thread.
package protocol LoopHandler: AnyObject {
    func makeSession(remoteAddress: String) -> any ConnectionSession
    /// The loop finished a pass over its ready events (and timers).
    func passEnded()
}

/// One connection's protocol state, driven by its loop on the loop's thread. Every method may queue
/// output (`ConnectionContext.queue`), change the phase, or close the connection.
package protocol ConnectionSession: AnyObject {
    /// The connection was accepted (and its TLS session attached): a greeting, or nothing.
    func opened(_ connection: Connection, on loop: any ConnectionContext)
    /// Plaintext from the peer, in order. Returns false if the connection was closed.
    func receive(_ bytes: UnsafeRawBufferPointer, on connection: Connection, loop: any ConnectionContext) -> Bool
    /// Acts on what was received (and on input held while output was pending): called after each read,
    /// when queued output has left, and after a held or parked connection went back to `.reading`.
    func process(_ connection: Connection, on loop: any ConnectionContext)
    /// The read-side deadline (idle, handshake, header or body) passed.
    func inputTimedOut(_ connection: Connection, on loop: any ConnectionContext)
    /// Everything queued has left and the connection goes back to reading or lingering.
    func outputWritten(_ connection: Connection, on loop: any ConnectionContext)
    /// The deadline of a `.held` connection passed.
    func holdExpired(_ connection: Connection, on loop: any ConnectionContext)
    /// What another thread posted for a `.parked` connection (`ConnectionContext.park`).
    func resume(with payload: any Sendable, _ connection: Connection, on loop: any ConnectionContext)
    /// The peer closed its side, or left, while the connection was `.parked`.
    func peerLeftWhileParked(_ connection: Connection, on loop: any ConnectionContext)
    /// The connection was closed: release anything held for it.
    func closed()
    /// Whether a request or command has partly arrived (a stopping loop lets it finish).
    var hasPartialInput: Bool { get }
}
