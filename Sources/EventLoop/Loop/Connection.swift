import TLS

/// One accepted client connection, owned by exactly one event loop.
package final class Connection {
    /// Where the connection is in its input/output cycle.
    package enum Phase {
        /// Receiving; the session acts on what arrives.
        /// → `.writing` (output queued), → `.held`, → `.dribbling`, → `.parked`, → closed (fault, EOF, timeout).
        case reading
        /// Flushing `outbound`; EPOLLOUT while the socket buffer is full.
        /// → `.reading` (written, keep-alive), → `.lingering` (written, closing), → closed (peer gone, stall).
        case writing
        /// The session holds its answer until the deadline (`ConnectionSession.holdExpired`); nothing is
        /// watched but the peer leaving. → whatever the session does then.
        case held
        /// `outbound` leaves `chunkSize` bytes per tick (`EpollLoop.startDribbling`).
        /// → `.reading` / `.lingering` (all sent), → closed (peer gone).
        case dribbling(chunkSize: Int, interval: Int64)
        /// Waiting for another thread to post (`EpollLoop.park`).
        /// → whatever the session does with the post (`ConnectionSession.resume`), → closed (peer gone).
        /// Only RDHUP/HUP/ERR are watched: the peer closing its side tells the session
        /// (`ConnectionSession.peerLeftWhileParked`), which usually answers at once.
        case parked
        /// Final output sent and write side shut; input is discarded until EOF or the deadline.
        /// → closed.
        case lingering
    }

    /// What happens when `deadline` passes. `handshake` is a TLS connection that has not finished its
    /// handshake; `idle`, `handshake`, `header` and `body` are the read side's
    /// (`ConnectionSession.inputTimedOut`).
    package enum DeadlineKind {
        case idle, handshake, header, body, writeStall, hold, dribbleTick, linger
    }

    package let fd: Int32
    /// Distinguishes this connection from a later one that reuses the descriptor.
    package let serial: UInt64
    package let remoteAddress: String
    package let session: any ConnectionSession
    // Touched only on the owning loop's thread, and no access overlaps another (the output buffer is
    // passed `inout` only to a serializer that writes nothing else): the dynamic exclusivity checks
    // (~60 instructions each, several per request) are off for these fields (`@exclusivity(unchecked)`;
    // bench/RESULTS.md, issue #40).
    @exclusivity(unchecked) package var phase: Phase = .reading
    /// Output not yet accepted by the kernel starts at `outboundOffset` (ciphertext on TLS).
    @exclusivity(unchecked) package var outbound: [UInt8] = []
    @exclusivity(unchecked) var outboundOffset = 0
    /// Close (with lingering) once `outbound` is written.
    @exclusivity(unchecked) package var closeAfterWrite = false
    /// The peer half-closed; answer what is buffered, then close.
    @exclusivity(unchecked) package var peerClosed = false
    /// Current epoll interest, to skip redundant `epoll_ctl`.
    @exclusivity(unchecked) var interest: UInt32
    @exclusivity(unchecked) var deadline: Int64 = .max
    @exclusivity(unchecked) package internal(set) var deadlineKind: DeadlineKind = .idle
    /// The earliest heap entry known for this connection (`.max` when none).
    @exclusivity(unchecked) var armedDeadline: Int64 = .max
    /// The TLS session on a TLS listener (or after STARTTLS): ciphertext in `outbound`, plaintext to
    /// the session.
    @exclusivity(unchecked) package var tls: TLSSession? = nil

    init(fd: Int32, serial: UInt64, remoteAddress: String, session: any ConnectionSession, interest: UInt32) {
        self.fd = fd
        self.serial = serial
        self.remoteAddress = remoteAddress
        self.session = session
        self.interest = interest
    }

    package var hasPendingOutput: Bool { outboundOffset < outbound.count }

    package var isReading: Bool {
        if case .reading = phase { return true }
        return false
    }
}
