import CSys

extension EpollLoop {
    /// Parks a connection until another thread posts to it (a response finished off the loop): only the
    /// peer closing its side is watched meanwhile (pipelined input waits), and no deadline runs.
    /// - Returns: where the other thread posts; `ConnectionSession.resume(with:_:on:)` gets the payload.
    package func park(_ connection: Connection) -> LoopPost {
        connection.phase = .parked
        setInterest(connection, csys_EPOLLRDHUP)
        connection.deadline = .max
        return LoopPost(inbox: inbox, fd: connection.fd, serial: connection.serial)
    }

    /// Hands what other threads posted to the parked connections it is for, if they are still the ones
    /// that parked (not closed, descriptor not reused).
    func deliverPosts() {
        for item in inbox.take() {
            guard Int(item.fd) < connections.count, let connection = connections[Int(item.fd)],
                connection.serial == item.serial, case .parked = connection.phase
            else { continue }
            connection.session.resume(with: item.payload, connection, on: self)
            if isOpen(connection) && connection.isReading { connection.session.process(connection, on: self) }
        }
        handler.passEnded()
    }
}

/// Where another thread posts what a parked connection waits for; a post for a connection that has
/// since closed is dropped.
package struct LoopPost: Sendable {
    let inbox: LoopInbox
    let fd: Int32
    let serial: UInt64

    package func post(_ payload: any Sendable) {
        inbox.post(LoopInbox.Item(fd: fd, serial: serial, payload: payload))
    }
}
