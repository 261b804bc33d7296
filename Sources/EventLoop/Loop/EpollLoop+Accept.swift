import CSys
import Glibc

extension EpollLoop {
    /// Accepts pending connections (bounded per wake-up so established clients are not starved).
    func acceptConnections() {
        for _ in 0..<64 {
            guard listenerFD >= 0 else { return }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let outcome: Syscall.Outcome
            do {
                outcome = try withUnsafeMutablePointer(to: &storage) { pointer throws(SocketError) in
                    try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SocketError) in
                        try Syscall.run("accept4") {
                            Int(csys_accept4(listenerFD, address, &length, csys_SOCK_NONBLOCK | csys_SOCK_CLOEXEC))
                        }
                    }
                }
            } catch {
                if error.errno == EMFILE || error.errno == ENFILE || error.errno == ENOBUFS || error.errno == ENOMEM {
                    pauseListener()
                }
                // ECONNABORTED and friends: the client left before accept; try the next one.
                if error.errno == ECONNABORTED || error.errno == EPROTO { continue }
                return
            }
            guard case .done(let value) = outcome else { return }
            let fd = Int32(truncatingIfNeeded: value)
            admit(fd: fd, address: SocketAddress(storage: storage, length: length))
        }
    }

    /// Registers a new connection, or sends the service's refusal (HTTP 503) and closes it when the server
    /// is at capacity.
    func admit(fd: Int32, address: SocketAddress) {
        let limit = max(1, context.configuration.maxConnections)
        let open = context.connectionCount.wrappingAdd(1, ordering: .relaxed).newValue
        guard open <= limit else {
            context.connectionCount.wrappingSubtract(1, ordering: .relaxed)
            Self.refuseOverCapacity(fd, reply: context.service.overCapacityReply)
            return
        }
        Syscall.setNoDelay(fd)
        let remoteAddress = address.text
        let connection = Connection(
            fd: fd, serial: nextSerial, remoteAddress: remoteAddress,
            session: handler.makeSession(remoteAddress: remoteAddress), interest: csys_EPOLLIN | csys_EPOLLRDHUP)
        nextSerial += 1
        do {
            try Syscall.epollControl(epollFD, csys_EPOLL_CTL_ADD, fd, events: connection.interest, token: UInt64(fd))
        } catch {
            context.connectionCount.wrappingSubtract(1, ordering: .relaxed)
            Syscall.close(fd)
            return
        }
        if Int(fd) >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: Int(fd) + 1 - connections.count + 64))
        }
        connections[Int(fd)] = connection
        connectionCount += 1
        guard attachTLS(connection) else { return }
        // A TLS handshake is part of getting the first request in: its own timeout bounds it, so a
        // client that opens connections and stalls mid-handshake cannot hold them for the idle timeout.
        let configuration = context.configuration
        if connection.tls != nil {
            setDeadline(
                connection,
                now + MonotonicClock.nanoseconds(milliseconds: configuration.handshakeTimeoutMilliseconds), .handshake)
        } else {
            setDeadline(
                connection, now + MonotonicClock.nanoseconds(milliseconds: configuration.idleTimeoutMilliseconds),
                .idle)
        }
        connection.session.opened(connection, on: self)
    }

    /// One non-blocking attempt to send the service's refusal (HTTP 503, SMTP 421), then close.
    static func refuseOverCapacity(_ fd: Int32, reply: [UInt8]) {
        Syscall.sendOnce(fd, reply)
        Syscall.shutdownWrite(fd)
        Syscall.close(fd)
    }

    /// Out of descriptors: stop polling the listener for 100 ms instead of spinning on EMFILE.
    func pauseListener() {
        guard listenerFD >= 0, listenerPausedUntil == nil else { return }
        try? Syscall.epollControl(epollFD, csys_EPOLL_CTL_DEL, listenerFD)
        listenerPausedUntil = now + 100_000_000
    }

    func resumeListenerIfDue() {
        guard let until = listenerPausedUntil, now >= until else { return }
        listenerPausedUntil = nil
        guard listenerFD >= 0 else { return }
        try? Syscall.epollControl(
            epollFD, csys_EPOLL_CTL_ADD, listenerFD, events: csys_EPOLLIN, token: Self.listenerToken)
    }
}
