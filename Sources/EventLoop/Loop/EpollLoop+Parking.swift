extension EpollLoop {
    /// Hands what other threads posted to the parked connections it is for, if they are still the ones
    /// that parked (not closed, descriptor not reused).
    func deliverPosts() {
        for item in inbox.take() {
            guard Int(item.fd) < connections.count, let connection = connections[Int(item.fd)],
                connection.serial == item.serial
            else { continue }
            resume(connection, with: item.payload)
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
