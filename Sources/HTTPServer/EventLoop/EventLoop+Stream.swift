import CSys
import Glibc
import TLS

/// Connections of a `StreamService` server (SMTP): the same reading, TLS, flushing, lingering and
/// timers as HTTP, with a `StreamSession` in place of the HTTP parser and responder.
extension EventLoop {
    /// Plaintext from the peer: to the HTTP parser, or to the connection's stream session.
    /// Returns false if the connection was closed.
    func deliver(_ connection: Connection, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let session = connection.stream else {
            connection.parser.append(bytes)
            return true
        }
        // After `.close` the session said its last word: later input is dropped.
        if connection.closeAfterWrite { return true }
        return apply(session.receive(bytes), to: connection)
    }

    /// Gives a connection accepted by a stream server its session and sends the greeting.
    func attachStream(_ connection: Connection, service: any StreamService) {
        let session = service.makeSession(remoteAddress: connection.remoteAddress)
        connection.stream = session
        guard apply(session.open(), to: connection) else { return }
        finishStreamInput(connection)
    }

    /// Queues a session's output and carries out what it asks next. Returns false if the connection
    /// was closed.
    func apply(_ output: StreamOutput, to connection: Connection) -> Bool {
        if !output.bytes.isEmpty {
            guard queue(connection, { $0.append(contentsOf: output.bytes) }) else { return false }
        }
        switch output.next {
        case .proceed:
            break
        case .close:
            connection.closeAfterWrite = true
        case .startTLS(let tlsContext):
            // The reply above was queued in plaintext; everything after it is TLS (RFC 3207 §4).
            do {
                connection.tls = try TLSSession(context: tlsContext)
            } catch {
                report(.tlsFailure, connection, error.message)
                close(connection)
                return false
            }
            setDeadline(
                connection,
                now + MonotonicClock.nanoseconds(milliseconds: context.configuration.headerTimeoutMilliseconds),
                .handshake)
        }
        return true
    }

    /// After a read (or a write completed): flush what the session queued, then keep reading, linger
    /// after its last word, or close when the peer has gone.
    func finishStreamInput(_ connection: Connection) {
        guard isOpen(connection), connection.isReading else { return }
        if connection.hasPendingOutput {
            // `flushResponse` → `responseWritten` restarts the idle deadline: a reply is progress.
            connection.phase = .writing
            flushResponse(connection)
            return
        }
        if connection.closeAfterWrite {
            startLingering(connection)
        } else if connection.peerClosed {
            close(connection)
        }
    }

    /// A stream connection's deadline passed while reading: its session's last words, one attempt to
    /// send them, then close.
    func expireStream(_ connection: Connection, session: any StreamSession) {
        let handshaking = connection.tls.map { !$0.isHandshakeComplete } ?? false
        if connection.isReading && !handshaking {
            let words = session.timedOut()
            if queue(connection, { $0.append(contentsOf: words) }) { _ = flush(connection) }
        }
        close(connection)
    }
}
