import CSys
import Glibc

extension EpollLoop {
    enum FlushResult {
        /// Everything queued was sent.
        case complete
        /// The socket buffer is full (or the byte limit was reached); bytes remain queued.
        case pending
        /// The peer is gone; the connection was closed.
        case closed
    }

    /// Sends queued bytes (at most `limit`) without blocking.
    func flush(_ connection: Connection, limit: Int = .max) -> FlushResult {
        var sent = 0
        while connection.outboundOffset < connection.outbound.count && sent < limit {
            let outcome: Syscall.Outcome
            do {
                outcome = try connection.outbound.withUnsafeBytes { bytes throws(SocketError) in
                    let count = min(bytes.count - connection.outboundOffset, limit - sent)
                    return try Syscall.run("send") {
                        send(connection.fd, bytes.baseAddress! + connection.outboundOffset, count, csys_MSG_NOSIGNAL)
                    }
                }
            } catch {
                close(connection)
                return .closed
            }
            guard case .done(let count) = outcome else { return .pending }
            connection.outboundOffset += count
            sent += count
        }
        guard connection.outboundOffset >= connection.outbound.count else { return .pending }
        connection.outbound.removeAll(keepingCapacity: true)
        connection.outboundOffset = 0
        return .complete
    }

    /// Flushes queued output in `.writing`; waits for EPOLLOUT when the client is slow to read.
    package func flushOutput(_ connection: Connection) {
        switch flush(connection) {
        case .closed:
            return
        case .pending:
            setInterest(connection, csys_EPOLLOUT)
            setDeadline(
                connection,
                now + MonotonicClock.nanoseconds(milliseconds: context.configuration.idleTimeoutMilliseconds),
                .writeStall)
        case .complete:
            outputWritten(connection)
        }
    }

    /// Queues output (`queue`) and starts sending it in `.writing`. Returns false if the connection was
    /// closed.
    @discardableResult
    package func write(_ connection: Connection, _ build: (inout [UInt8]) -> Void) -> Bool {
        guard queue(connection, build) else { return false }
        connection.phase = .writing
        flushOutput(connection)
        return true
    }

    /// EPOLLOUT: continue whatever was waiting for socket buffer space.
    func writable(_ connection: Connection) {
        switch connection.phase {
        case .writing:
            flushOutput(connection)
            if isOpen(connection) && connection.isReading { connection.session.process(connection, on: self) }
        case .reading:
            // Interim output that did not fit at once (an HTTP `100 Continue`).
            if case .complete = flush(connection) { setInterest(connection, csys_EPOLLIN | csys_EPOLLRDHUP) }
        case .held, .dribbling, .lingering, .parked:
            break
        }
    }

    /// The whole output left: tell the session, then keep the connection for the next input or close
    /// it. Does not process further input itself (callers loop), so pipelining never recurses.
    func outputWritten(_ connection: Connection) {
        connection.session.outputWritten(connection, on: self)
        if connection.closeAfterWrite {
            startLingering(connection)
            return
        }
        connection.phase = .reading
        setInterest(connection, csys_EPOLLIN | csys_EPOLLRDHUP)
        setDeadline(
            connection, now + MonotonicClock.nanoseconds(milliseconds: context.configuration.idleTimeoutMilliseconds),
            .idle)
    }

    /// Lingering close (RFC 9112 §9.6): shut the write side so the client sees the whole response and EOF,
    /// and drain its input briefly so unread bytes do not turn the close into an RST that eats the response.
    func startLingering(_ connection: Connection) {
        guard sendCloseNotify(connection) else { return }
        Syscall.shutdownWrite(connection.fd)
        if connection.peerClosed {
            close(connection)
            return
        }
        connection.phase = .lingering
        setInterest(connection, csys_EPOLLIN | csys_EPOLLRDHUP)
        setDeadline(connection, now + Self.lingerTime, .linger)
    }

    static var lingerTime: Int64 { 2_000_000_000 }

    func setInterest(_ connection: Connection, _ events: UInt32) {
        guard connection.interest != events else { return }
        connection.interest = events
        try? Syscall.epollControl(
            epollFD, csys_EPOLL_CTL_MOD, connection.fd, events: events, token: UInt64(connection.fd))
    }

    /// Forgets the connection and closes its descriptor (epoll drops it on close).
    package func close(_ connection: Connection) {
        guard isOpen(connection) else { return }
        connections[Int(connection.fd)] = nil
        // Whatever the session holds (a parked wait) must not outlive its connection.
        connection.session.closed()
        connectionCount -= 1
        context.connectionCount.wrappingSubtract(1, ordering: .relaxed)
        Syscall.close(connection.fd)
    }
}

extension EpollLoop {
    /// Sends the queued output `chunkSize` bytes every `interval` nanoseconds (a slow body, injected as
    /// a fault), then goes on as after any output (`outputWritten`).
    package func startDribbling(_ connection: Connection, chunkSize: Int, interval: Int64) {
        connection.phase = .dribbling(chunkSize: max(1, chunkSize), interval: interval)
        setInterest(connection, 0)
        dribble(connection)
    }

    /// One tick of `.dribbling`: at most one chunk, then wait for the next tick.
    func dribble(_ connection: Connection) {
        guard case .dribbling(let chunkSize, let interval) = connection.phase else { return }
        switch flush(connection, limit: chunkSize) {
        case .closed:
            return
        case .complete:
            outputWritten(connection)
            if isOpen(connection) && connection.isReading { connection.session.process(connection, on: self) }
        case .pending:
            setDeadline(connection, now + interval, .dribbleTick)
        }
    }

    /// Holds the connection until `deadline` (monotonic nanoseconds), when the session is told
    /// (`ConnectionSession.holdExpired`); meanwhile only the peer leaving is noticed.
    package func hold(_ connection: Connection, until deadline: Int64) {
        connection.phase = .held
        setInterest(connection, 0)
        setDeadline(connection, deadline, .hold)
    }
}

extension EpollLoop {
    /// Queues interim output while reading (an HTTP `100 Continue`) and sends what fits at once; the rest
    /// leaves when the socket is writable, reading going on meanwhile. Returns false if the connection
    /// was closed.
    package func sendInterim(_ connection: Connection, _ bytes: [UInt8]) -> Bool {
        guard queue(connection, { $0.append(contentsOf: bytes) }) else { return false }
        if case .pending = flush(connection) {
            setInterest(connection, csys_EPOLLIN | csys_EPOLLRDHUP | csys_EPOLLOUT)
        }
        return isOpen(connection)
    }

    /// Closes with RST (SO_LINGER 0) instead of FIN, without sending anything more.
    package func reset(_ connection: Connection) {
        Syscall.setResetOnClose(connection.fd)
        close(connection)
    }

    /// Closes cleanly (FIN) without sending anything more.
    package func closeWithoutOutput(_ connection: Connection) {
        Syscall.shutdownWrite(connection.fd)
        close(connection)
    }
}
