import CSys
import Glibc

extension EpollLoop {
    /// Bytes read per readiness event before yielding to other connections (level-triggered epoll
    /// reports the rest on the next iteration).
    static let readBudget = 256 * 1024

    package func isOpen(_ connection: Connection) -> Bool {
        Int(connection.fd) < connections.count && connections[Int(connection.fd)] === connection
    }

    /// EPOLLIN / RDHUP / HUP / ERR on a connection.
    func readable(_ connection: Connection, flags: UInt32) {
        switch connection.phase {
        case .reading:
            guard readIntoSession(connection) else { return }
            connection.session.process(connection, on: self)
        case .lingering:
            discardInput(connection)
        case .parked:
            // Only RDHUP is watched while parked: the peer closed its side (or is gone). The session
            // answers now if it can; a half-closed peer still reads that answer.
            setInterest(connection, 0)
            if flags & (csys_EPOLLHUP | csys_EPOLLERR) != 0 { close(connection) }
            connection.session.peerLeftWhileParked(connection, on: self)
        case .writing, .held, .dribbling:
            // Input interest is off while busy, so only HUP/ERR get here: the peer is gone entirely.
            if flags & (csys_EPOLLHUP | csys_EPOLLERR) != 0 { close(connection) }
        }
    }

    /// Reads what is available and hands the plaintext to the session. Returns false if the connection
    /// was closed.
    func readIntoSession(_ connection: Connection) -> Bool {
        var total = 0
        while total < Self.readBudget {
            let outcome: Syscall.Outcome
            do {
                outcome = try Syscall.run("read") { read(connection.fd, readBuffer.baseAddress, Self.readBufferSize) }
            } catch {
                close(connection)
                return false
            }
            guard case .done(let count) = outcome else { break }
            if count == 0 {
                connection.peerClosed = true
                break
            }
            if let tls = connection.tls {
                guard decryptInput(connection, tls: tls, count: count) else { return false }
            } else {
                let plaintext = UnsafeRawBufferPointer(rebasing: readBuffer[0..<count])
                guard connection.session.receive(plaintext, on: connection, loop: self) else { return false }
            }
            total += count
            if connection.peerClosed { break }
            if count < Self.readBufferSize { break }
        }
        return true
    }

    /// In `.lingering`: read and drop input until EOF, then close.
    func discardInput(_ connection: Connection) {
        while true {
            let outcome = try? Syscall.run("read") { read(connection.fd, readBuffer.baseAddress, Self.readBufferSize) }
            switch outcome {
            case .done(let count) where count > 0: continue
            case .wouldBlock: return
            default:
                close(connection)
                return
            }
        }
    }
}
