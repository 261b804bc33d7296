import TLS

/// One accepted client connection, owned by exactly one event loop.
final class Connection {
    /// Where the connection is in its request/response cycle.
    enum Phase {
        /// Receiving and parsing requests.
        /// → `.writing` (response serialized), → `.delayed`, → `.dribbling`, → closed (fault, EOF, timeout).
        case reading
        /// Flushing `outbound`; EPOLLOUT while the socket buffer is full.
        /// → `.reading` (written, keep-alive), → `.lingering` (written, closing), → closed (peer gone, stall).
        case writing
        /// `Delivery.delayed`: the response waits for the deadline.
        /// → `.writing` (deadline reached).
        case delayed(HTTPResponse, includeBody: Bool, keepAliveHeader: Bool)
        /// `Delivery.slowBody`: `outbound` leaves `chunkSize` bytes per tick.
        /// → `.reading` / `.lingering` (all sent), → closed (peer gone).
        case dribbling(chunkSize: Int, interval: Int64)
        /// `Delivery.deferred`: waiting for another thread to finish the response.
        /// → `.writing` (or any delivery of the finished response), → closed (peer gone: the answer is dropped).
        /// Only RDHUP/HUP/ERR are watched: the peer closing its side cancels the wait (`awaited`).
        case awaiting(
            method: HTTPMethod, target: String, started: Int64, includeBody: Bool, keepAlive: Bool, http10: Bool)
        /// Final response sent and write side shut; input is discarded until EOF or the deadline.
        /// → closed.
        case lingering
    }

    /// What happens when `deadline` passes. `handshake` is a TLS connection that has not finished its
    /// handshake: it gets the header timeout, like any request head still arriving.
    enum DeadlineKind {
        case idle, handshake, header, body, writeStall, delayedResponse, dribbleTick, linger
    }

    /// The request being answered, for the exchange record.
    struct Exchange {
        var method: HTTPMethod
        var target: String
        var status: HTTPStatus
        var started: Int64
        var logFields: [String: String] = [:]
    }

    let fd: Int32
    /// Distinguishes this connection from a later one that reuses the descriptor.
    let serial: UInt64
    let remoteAddress: String
    var parser: HTTPRequestParser
    var phase: Phase = .reading
    /// Response bytes not yet accepted by the kernel start at `outboundOffset`.
    var outbound: [UInt8] = []
    var outboundOffset = 0
    /// Close (with lingering) once `outbound` is written.
    var closeAfterWrite = false
    /// The peer half-closed; answer what is buffered, then close.
    var peerClosed = false
    var exchange: Exchange? = nil
    /// The deferred response `.awaiting` waits for: cancelled when the peer goes away meanwhile.
    var awaited: DeferredResponse? = nil
    /// Current epoll interest, to skip redundant `epoll_ctl`.
    var interest: UInt32
    var deadline: Int64 = .max
    var deadlineKind: DeadlineKind = .idle
    /// The earliest heap entry known for this connection (`.max` when none).
    var armedDeadline: Int64 = .max
    /// The TLS session on a TLS listener: ciphertext in `outbound`, plaintext through the parser.
    var tls: TLSSession? = nil
    /// The protocol session on a `StreamService` server (SMTP): plaintext goes here, not to `parser`.
    var stream: (any StreamSession)? = nil

    init(fd: Int32, serial: UInt64, remoteAddress: String, limits: HTTPRequestParser.Limits, interest: UInt32) {
        self.fd = fd
        self.serial = serial
        self.remoteAddress = remoteAddress
        self.parser = HTTPRequestParser(limits: limits, remoteAddress: remoteAddress)
        self.interest = interest
    }

    var hasPendingOutput: Bool { outboundOffset < outbound.count }

    var isReading: Bool {
        if case .reading = phase { return true }
        return false
    }
}
