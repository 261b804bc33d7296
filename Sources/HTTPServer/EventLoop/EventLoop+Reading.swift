import CSys
import Glibc

extension EventLoop {
    static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
    /// Bytes read per readiness event before yielding to other connections (level-triggered epoll
    /// reports the rest on the next iteration).
    static let readBudget = 256 * 1024

    func isOpen(_ connection: Connection) -> Bool {
        Int(connection.fd) < connections.count && connections[Int(connection.fd)] === connection
    }

    /// EPOLLIN / RDHUP / HUP / ERR on a connection.
    func readable(_ connection: Connection, flags: UInt32) {
        switch connection.phase {
        case .reading:
            guard readIntoParser(connection) else { return }
            processRequests(connection)
        case .lingering:
            discardInput(connection)
        case .awaiting:
            // Only RDHUP is watched while waiting: the peer closed its side (or is gone). A parked wait
            // answers now (`DeferredResponse.cancel`); a half-closed peer still reads that answer.
            let pending = connection.awaited
            connection.awaited = nil
            setInterest(connection, 0)
            if flags & (csys_EPOLLHUP | csys_EPOLLERR) != 0 { close(connection) }
            pending?.cancel()
        case .writing, .delayed, .dribbling:
            // Input interest is off while busy, so only HUP/ERR get here: the peer is gone entirely.
            if flags & (csys_EPOLLHUP | csys_EPOLLERR) != 0 { close(connection) }
        }
    }

    /// Reads what is available into the parser. Returns false if the connection was closed.
    func readIntoParser(_ connection: Connection) -> Bool {
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
                guard deliver(connection, UnsafeRawBufferPointer(rebasing: readBuffer[0..<count])) else { return false }
            }
            total += count
            if connection.peerClosed { break }
            if count < Self.readBufferSize { break }
        }
        return true
    }

    /// Answers every complete buffered request in order until the connection is busy or needs more bytes.
    func processRequests(_ connection: Connection) {
        if connection.stream != nil {
            finishStreamInput(connection)
            return
        }
        while isOpen(connection) && connection.isReading {
            switch connection.parser.next() {
            case .needMoreData:
                waitForMoreData(connection)
                return
            case .request(let request):
                respond(connection, to: request)
            case .reject(let status, let reason):
                reject(connection, status: HTTPStatus(code: status), reason: reason)
            }
        }
    }

    /// Arms the timeout that matches how far the next request has come, and sends 100 Continue if asked.
    func waitForMoreData(_ connection: Connection) {
        if connection.parser.takeContinueRequest() {
            guard queue(connection, { $0.append(contentsOf: Self.continueResponse) }) else { return }
            if case .pending = flush(connection) {
                setInterest(connection, csys_EPOLLIN | csys_EPOLLRDHUP | csys_EPOLLOUT)
            }
            guard isOpen(connection) else { return }
        }
        let configuration = context.configuration
        if connection.peerClosed || (stopDeadline != nil && !connection.parser.hasPartialRequest) {
            close(connection)
        } else if connection.parser.isReadingBody {
            if connection.deadlineKind != .body {
                setDeadline(
                    connection, now + MonotonicClock.nanoseconds(milliseconds: configuration.bodyTimeoutMilliseconds),
                    .body)
            }
        } else if connection.parser.hasPartialRequest {
            if connection.deadlineKind != .header {
                setDeadline(
                    connection, now + MonotonicClock.nanoseconds(milliseconds: configuration.headerTimeoutMilliseconds),
                    .header)
            }
        }
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
