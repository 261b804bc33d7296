import CSys
import Glibc
import TLS

/// TLS on the same loop: the session works on memory buffers, so the loop still makes every syscall.
/// Ciphertext from `read` is fed to the TLS session and plaintext goes to the connection's session;
/// output is built as plaintext, encrypted, and the ciphertext lands in `outbound`, so flushing, holds,
/// slow output and lingering close work unchanged.
extension EpollLoop {
    /// Gives a connection accepted on a TLS listener its session. Returns false if it was closed.
    func attachTLS(_ connection: Connection) -> Bool {
        guard let tlsContext = context.configuration.tls else { return true }
        do {
            connection.tls = try TLSSession(context: tlsContext)
            return true
        } catch {
            report(.tlsFailure, connection, error.message)
            close(connection)
            return false
        }
    }

    /// Decrypts `count` ciphertext bytes just read into `readBuffer` and hands the plaintext to the
    /// connection's session; sends what the handshake produced. Returns false if the connection was closed.
    func decryptInput(_ connection: Connection, tls: TLSSession, count: Int) -> Bool {
        tls.feed(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]))
        reading: while true {
            switch tls.read(into: readBuffer) {
            case .bytes(let plain):
                let plaintext = UnsafeRawBufferPointer(rebasing: readBuffer[0..<plain])
                guard connection.session.receive(plaintext, on: connection, loop: self) else { return false }
            case .needMoreData:
                break reading
            case .closed:
                connection.peerClosed = true
                break reading
            case .failed(let error):
                failTLS(connection, tls: tls, error)
                return false
            }
        }
        if connection.deadlineKind == .handshake && tls.isHandshakeComplete {
            // Handshake done: now an idle keep-alive connection until request bytes arrive.
            setDeadline(
                connection,
                now + MonotonicClock.nanoseconds(milliseconds: context.configuration.idleTimeoutMilliseconds), .idle)
        }
        tls.takeOutput(into: &connection.outbound)
        guard connection.hasPendingOutput else { return true }
        switch flush(connection) {
        case .closed: return false
        case .pending: setInterest(connection, csys_EPOLLIN | csys_EPOLLRDHUP | csys_EPOLLOUT)
        case .complete: break
        }
        return true
    }

    /// Logs a failed handshake or record, sends the alert (or, for plain HTTP, the service's plaintext
    /// reply: a 400 the client can read) and closes.
    func failTLS(_ connection: Connection, tls: TLSSession, _ error: TLSError) {
        if error.kind == .plainHTTP {
            report(.plainHTTPOnTLSPort, connection, error.message)
            Syscall.sendOnce(connection.fd, context.service.plaintextOnTLSReply)
            Syscall.shutdownWrite(connection.fd)
        } else {
            report(.tlsFailure, connection, error.message)
            tls.takeOutput(into: &connection.outbound)
            _ = flush(connection)
        }
        close(connection)
    }

    package func report(_ kind: ConnectionDiagnostic.Kind, _ connection: Connection, _ message: String) {
        context.onDiagnostic?(
            ConnectionDiagnostic(kind: kind, remoteAddress: connection.remoteAddress, message: message))
    }
}
