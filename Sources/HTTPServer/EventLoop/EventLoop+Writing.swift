import CSys
import Glibc

extension EventLoop {
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

    /// Flushes a response in `.writing`; waits for EPOLLOUT when the client is slow to read.
    func flushResponse(_ connection: Connection) {
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
            responseWritten(connection)
        }
    }

    /// EPOLLOUT: continue whatever was waiting for socket buffer space.
    func writable(_ connection: Connection) {
        switch connection.phase {
        case .writing:
            flushResponse(connection)
            if isOpen(connection) && connection.isReading { processRequests(connection) }
        case .reading:
            // A `100 Continue` that did not fit at once.
            if case .complete = flush(connection) { setInterest(connection, csys_EPOLLIN | csys_EPOLLRDHUP) }
        case .delayed, .dribbling, .lingering, .awaiting:
            break
        }
    }

    /// The whole response left: report it, then keep the connection for the next request or close it.
    /// Does not parse further requests itself (callers loop), so pipelining never recurses.
    func responseWritten(_ connection: Connection) {
        finishExchange(connection)
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
    func close(_ connection: Connection) {
        guard isOpen(connection) else { return }
        connections[Int(connection.fd)] = nil
        // A parked wait must not outlive its connection.
        if let pending = connection.awaited {
            connection.awaited = nil
            pending.cancel()
        }
        connectionCount -= 1
        context.connectionCount.wrappingSubtract(1, ordering: .relaxed)
        Syscall.close(connection.fd)
    }
}
