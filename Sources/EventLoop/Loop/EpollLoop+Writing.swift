import CSys
import Glibc

extension EpollLoop {
    /// Sends queued bytes (at most `limit`) without blocking.
    package func transmit(_ connection: Connection, limit: Int) -> FlushResult {
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

    package func setInterest(_ connection: Connection, _ events: UInt32) {
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

    package func shutdownWrite(_ connection: Connection) {
        Syscall.shutdownWrite(connection.fd)
    }

    package func reset(_ connection: Connection) {
        Syscall.setResetOnClose(connection.fd)
        close(connection)
    }
}
