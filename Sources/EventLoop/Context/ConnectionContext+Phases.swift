import CSys

/// A connection's phases (`Connection.Phase`), written once for every transport: what queueing,
/// writing, lingering, holding, dribbling, parking and each deadline do, in terms of the transport's
/// primitives (`ConnectionContext`).
extension ConnectionContext {
    /// Sends everything queued without blocking.
    package func flush(_ connection: Connection) -> FlushResult { transmit(connection, limit: .max) }

    /// Queues output built by `build`: as it is, or encrypted on a TLS connection.
    /// Returns false if encryption failed and the connection was closed.
    package func queue(_ connection: Connection, _ build: (inout [UInt8]) -> Void) -> Bool {
        guard let tls = connection.tls else {
            build(&connection.outbound)
            return true
        }
        var plaintext: [UInt8] = []
        build(&plaintext)
        do {
            try tls.write(plaintext)
        } catch {
            report(.tlsFailure, connection, error.message)
            close(connection)
            return false
        }
        tls.takeOutput(into: &connection.outbound)
        return true
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

    /// Flushes queued output in `.writing`; waits for the transport to be writable when the client is
    /// slow to read, for at most the idle timeout.
    package func flushOutput(_ connection: Connection) {
        switch flush(connection) {
        case .closed:
            return
        case .pending:
            setInterest(connection, csys_EPOLLOUT)
            setDeadline(connection, now + idleTimeout, .writeStall)
        case .complete:
            outputWritten(connection)
        }
    }

    /// The transport can take more output: continue whatever was waiting for it.
    package func writable(_ connection: Connection) {
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
    package func outputWritten(_ connection: Connection) {
        connection.session.outputWritten(connection, on: self)
        if connection.closeAfterWrite {
            startLingering(connection)
            return
        }
        connection.phase = .reading
        setInterest(connection, csys_EPOLLIN | csys_EPOLLRDHUP)
        setDeadline(connection, now + idleTimeout, .idle)
    }

    /// Lingering close (RFC 9112 §9.6): shut the write side so the client sees the whole response and EOF,
    /// and drain its input briefly so unread bytes do not turn the close into an RST that eats the response.
    package func startLingering(_ connection: Connection) {
        guard sendCloseNotify(connection) else { return }
        shutdownWrite(connection)
        if connection.peerClosed {
            close(connection)
            return
        }
        connection.phase = .lingering
        setInterest(connection, csys_EPOLLIN | csys_EPOLLRDHUP)
        setDeadline(connection, now + lingerTime, .linger)
    }

    /// How long a lingering close drains the peer's input.
    package var lingerTime: Int64 { 2_000_000_000 }

    /// Before a lingering close: queue TLS close_notify and try once to send it.
    /// Returns false if the connection was closed.
    func sendCloseNotify(_ connection: Connection) -> Bool {
        guard let tls = connection.tls else { return true }
        tls.close()
        tls.takeOutput(into: &connection.outbound)
        if case .closed = flush(connection) { return false }
        return true
    }

    /// Closes cleanly (FIN) without sending anything more.
    package func closeWithoutOutput(_ connection: Connection) {
        shutdownWrite(connection)
        close(connection)
    }
}

extension ConnectionContext {
    /// Queues interim output while reading (an HTTP `100 Continue`) and sends what fits at once; the rest
    /// leaves when the transport is writable, reading going on meanwhile. Returns false if the connection
    /// was closed.
    package func sendInterim(_ connection: Connection, _ bytes: [UInt8]) -> Bool {
        guard queue(connection, { $0.append(contentsOf: bytes) }) else { return false }
        if case .pending = flush(connection) {
            setInterest(connection, csys_EPOLLIN | csys_EPOLLRDHUP | csys_EPOLLOUT)
        }
        return isOpen(connection)
    }

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
        switch transmit(connection, limit: chunkSize) {
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

    /// Parks a connection until another thread posts to it (a response finished off the loop): only the
    /// peer closing its side is watched meanwhile (pipelined input waits), and no deadline runs.
    /// - Returns: where the other thread posts; `ConnectionSession.resume(with:_:on:)` gets the payload.
    package func park(_ connection: Connection) -> LoopPost {
        connection.phase = .parked
        setInterest(connection, csys_EPOLLRDHUP)
        setDeadline(connection, .max, connection.deadlineKind)
        return LoopPost(inbox: inbox, fd: connection.fd, serial: connection.serial)
    }

    /// Hands a post to the parked connection it is for, then lets it go on reading.
    func resume(_ connection: Connection, with payload: any Sendable) {
        guard case .parked = connection.phase else { return }
        connection.session.resume(with: payload, connection, on: self)
        if isOpen(connection) && connection.isReading { connection.session.process(connection, on: self) }
    }

    /// The connection's deadline of `kind` passed.
    func fire(_ kind: Connection.DeadlineKind, for connection: Connection) {
        switch kind {
        case .idle, .handshake, .header, .body:
            connection.session.inputTimedOut(connection, on: self)
        case .writeStall, .linger:
            close(connection)
        case .hold:
            connection.session.holdExpired(connection, on: self)
            if isOpen(connection) && connection.isReading { connection.session.process(connection, on: self) }
        case .dribbleTick:
            dribble(connection)
        }
    }
}
