import TLS

/// A `StreamService` (SMTP) as the event loop drives it: the same reading, TLS, flushing, lingering and
/// timers as HTTP, with the service's `StreamSession` turning plaintext into replies.
struct StreamConnectionService: ConnectionService {
    let service: any StreamService

    func makeLoopHandler() -> any LoopHandler { StreamLoopHandler(service: service) }
    var overCapacityReply: [UInt8] { service.overCapacityReply }
    /// Stream listeners speak plaintext first (STARTTLS); a listener with TLS from the first byte
    /// closes a plaintext peer without a word.
    var plaintextOnTLSReply: [UInt8] { [] }
}

final class StreamLoopHandler: LoopHandler {
    let service: any StreamService

    init(service: any StreamService) { self.service = service }

    func makeSession(remoteAddress: String) -> any ConnectionSession {
        StreamConnectionSession(service.makeSession(remoteAddress: remoteAddress))
    }

    func passEnded() {}
}

/// One stream connection: its `StreamSession`, and what the loop does with that session's output.
final class StreamConnectionSession: ConnectionSession {
    let stream: any StreamSession

    init(_ stream: any StreamSession) { self.stream = stream }

    /// Sends the greeting.
    func opened(_ connection: Connection, on loop: any ConnectionContext) {
        guard apply(stream.open(), to: connection, on: loop) else { return }
        process(connection, on: loop)
    }

    func receive(_ bytes: UnsafeRawBufferPointer, on connection: Connection, loop: any ConnectionContext) -> Bool {
        // After `.close` the session said its last word: later input is dropped.
        if connection.closeAfterWrite { return true }
        return apply(stream.receive(bytes), to: connection, on: loop)
    }

    /// Queues a session's output and carries out what it asks next. Returns false if the connection
    /// was closed.
    func apply(_ output: StreamOutput, to connection: Connection, on loop: any ConnectionContext) -> Bool {
        if !output.bytes.isEmpty {
            guard loop.queue(connection, { $0.append(contentsOf: output.bytes) }) else { return false }
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
                loop.report(.tlsFailure, connection, error.message)
                loop.close(connection)
                return false
            }
            loop.setDeadline(connection, loop.now + loop.handshakeTimeout, .handshake)
        }
        return true
    }

    /// After a read (or a write completed): flush what the session queued, then keep reading, linger
    /// after its last word, or close when the peer has gone.
    func process(_ connection: Connection, on loop: any ConnectionContext) {
        guard loop.isOpen(connection), connection.isReading else { return }
        if connection.hasPendingOutput {
            // `flushOutput` → `outputWritten` restarts the idle deadline: a reply is progress.
            connection.phase = .writing
            loop.flushOutput(connection)
            return
        }
        if connection.closeAfterWrite {
            loop.startLingering(connection)
        } else if connection.peerClosed {
            loop.close(connection)
        }
    }

    /// The deadline passed while reading: the session's last words, one attempt to send them, then close.
    func inputTimedOut(_ connection: Connection, on loop: any ConnectionContext) {
        let handshaking = connection.tls.map { !$0.isHandshakeComplete } ?? false
        if connection.isReading && !handshaking {
            let words = stream.timedOut()
            if loop.queue(connection, { $0.append(contentsOf: words) }) { _ = loop.flush(connection) }
        }
        loop.close(connection)
    }

    func outputWritten(_ connection: Connection, on loop: any ConnectionContext) {}
    /// Never held or parked: a stream session answers at once.
    func holdExpired(_ connection: Connection, on loop: any ConnectionContext) {}
    func resume(with payload: any Sendable, _ connection: Connection, on loop: any ConnectionContext) {}
    func peerLeftWhileParked(_ connection: Connection, on loop: any ConnectionContext) {}
    func closed() {}
    /// A stopping server closes a reading stream connection at once, as it always did.
    var hasPartialInput: Bool { false }
}
