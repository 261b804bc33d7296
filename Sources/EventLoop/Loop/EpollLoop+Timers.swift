extension EpollLoop {
    /// Sets the connection's single deadline. The heap gets a new entry only when the deadline moves
    /// earlier than any entry already queued for it, so keep-alive traffic (which only pushes the idle
    /// deadline later) costs no heap operations.
    package func setDeadline(_ connection: Connection, _ deadline: Int64, _ kind: Connection.DeadlineKind) {
        connection.deadline = deadline
        connection.deadlineKind = kind
        if deadline < connection.armedDeadline {
            timers.push(TimerHeap.Entry(deadline: deadline, fd: connection.fd, serial: connection.serial))
            connection.armedDeadline = deadline
        }
    }

    /// Pops due heap entries; fires connections whose deadline passed and re-arms the others.
    func fireTimers() {
        while let entry = timers.popDue(now: now) {
            guard Int(entry.fd) < connections.count, let connection = connections[Int(entry.fd)],
                connection.serial == entry.serial
            else { continue }
            if entry.deadline == connection.armedDeadline { connection.armedDeadline = .max }
            if connection.deadline <= now {
                let kind = connection.deadlineKind
                connection.deadline = .max
                fire(kind, for: connection)
            } else if connection.deadline != .max && connection.deadline < connection.armedDeadline {
                timers.push(
                    TimerHeap.Entry(deadline: connection.deadline, fd: connection.fd, serial: connection.serial))
                connection.armedDeadline = connection.deadline
            }
        }
    }
}
