import CSys
import Glibc

/// Creates the non-blocking listening sockets, one per event loop, sharing a port via SO_REUSEPORT.
package enum Listener {
    static let backlog: Int32 = 1024

    /// Binds `count` listeners to `host:port`. With port 0 the first bind picks the port and the others reuse it.
    /// - Returns: the descriptors and the port actually bound.
    package static func bind(host: String, port: Int, count: Int) throws(ListenError) -> (fds: [Int32], port: Int) {
        guard var address = SocketAddress.resolve(host: host, port: port) else {
            throw ListenError(
                .invalidAddress, "invalid listen address '\(host)' port \(port): not an IP address or known host")
        }
        if port != 0 {
            // SO_REUSEPORT would silently share the port with another process of the same user; probe first.
            try probeExclusive(address, host: host, port: port)
        }
        var fds: [Int32] = []
        do {
            for _ in 0..<max(1, count) {
                fds.append(try makeListener(address, host: host))
                if address.port == 0 { address = withPort(address, SocketAddress.local(of: fds[0]).port) }
            }
        } catch {
            fds.forEach(Syscall.close)
            throw error
        }
        return (fds, address.port)
    }

    static func makeListener(_ address: SocketAddress, host: String) throws(ListenError) -> Int32 {
        let fd: Int32
        do {
            fd = try Syscall.tcpSocket(family: address.family)
        } catch {
            throw ListenError(.systemResource, "socket: \(error)")
        }
        do {
            try Syscall.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            try Syscall.setOption(fd, SOL_SOCKET, SO_REUSEPORT, 1)
            _ = try Syscall.check("bind") { address.withSockAddr { Glibc.bind(fd, $0, $1) } }
            _ = try Syscall.check("listen") { listen(fd, backlog) }
        } catch {
            Syscall.close(fd)
            throw bindError(error, host: host, port: address.port)
        }
        return fd
    }

    /// Binds (without listening) a socket lacking SO_REUSEPORT to detect a port held by anyone else.
    static func probeExclusive(_ address: SocketAddress, host: String, port: Int) throws(ListenError) {
        guard let fd = try? Syscall.tcpSocket(family: address.family, nonBlocking: false) else { return }
        defer { Syscall.close(fd) }
        do {
            try Syscall.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            _ = try Syscall.check("bind") { address.withSockAddr { Glibc.bind(fd, $0, $1) } }
        } catch {
            throw bindError(error, host: host, port: port)
        }
    }

    static func bindError(_ error: SocketError, host: String, port: Int) -> ListenError {
        let kind: ListenErrorKind = error.errno == EADDRINUSE ? .addressInUse : .bindFailed
        let what = error.errno == EADDRINUSE ? "address already in use" : error.description
        return ListenError(kind, "cannot listen on \(host):\(port): \(what)")
    }

    static func withPort(_ address: SocketAddress, _ port: Int) -> SocketAddress {
        var copy = address
        withUnsafeMutableBytes(of: &copy.storage) { raw in
            let networkPort = UInt16(port).bigEndian
            if address.family == AF_INET {
                var sin = raw.load(as: sockaddr_in.self)
                sin.sin_port = networkPort
                raw.storeBytes(of: sin, as: sockaddr_in.self)
            } else {
                var sin6 = raw.load(as: sockaddr_in6.self)
                sin6.sin6_port = networkPort
                raw.storeBytes(of: sin6, as: sockaddr_in6.self)
            }
        }
        return copy
    }
}
