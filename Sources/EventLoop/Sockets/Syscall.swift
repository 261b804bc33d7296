import CSys
import Glibc

/// The one place socket syscalls are made: retries `EINTR`, maps `EAGAIN` to `.wouldBlock`,
/// and throws every other failure as `SocketError(errno:function:)`.
package enum Syscall {
    package enum Outcome {
        case done(Int)
        case wouldBlock
    }

    @inline(__always)
    package static func run(_ function: StaticString, _ body: () -> Int) throws(SocketError) -> Outcome {
        while true {
            let result = body()
            if result >= 0 { return .done(result) }
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            throw SocketError(errno: code, function: "\(function)")
        }
    }

    /// For calls where `EAGAIN` is not expected (socket, bind, setsockopt…).
    @inline(__always)
    package static func check(_ function: StaticString, _ body: () -> Int32) throws(SocketError) -> Int32 {
        switch try run(function, { Int(body()) }) {
        case .done(let value): return Int32(truncatingIfNeeded: value)
        case .wouldBlock: throw SocketError(errno: EAGAIN, function: "\(function)")
        }
    }

    /// Closes a descriptor; `close` must not be retried on EINTR on Linux, and errors carry no action.
    package static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    package static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) throws(SocketError) {
        var value = value
        _ = try check("setsockopt") {
            setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// Disables Nagle so a response written with one `send` leaves at once.
    package static func setNoDelay(_ fd: Int32) {
        try? setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
    }

    /// SO_LINGER with timeout 0: the following `close` sends RST instead of FIN.
    package static func setResetOnClose(_ fd: Int32) {
        var value = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
    }

    /// `epoll_ctl` (`csys_EPOLL_CTL_ADD`, `_MOD` or `_DEL`): `events` and `token` (the event's data) are
    /// ignored for `_DEL`.
    package static func epollControl(
        _ epollFD: Int32, _ operation: Int32, _ fd: Int32, events: UInt32 = 0, token: UInt64 = 0
    ) throws(SocketError) {
        _ = try check("epoll_ctl") { csys_epoll_ctl(epollFD, operation, fd, events, token) }
    }

    /// A non-blocking, close-on-exec eventfd (the event loops' wake-up).
    package static func eventFD() throws(SocketError) -> Int32 {
        try check("eventfd") { csys_eventfd() }
    }

    /// Half-closes `fd` (`SHUT_WR`: the peer sees EOF after what was sent); a failure (the peer is gone)
    /// carries no action.
    package static func shutdownWrite(_ fd: Int32) {
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// Starts a connect on a non-blocking socket: true when connected at once, false while in progress
    /// (`EINPROGRESS`, or `EINTR`, after which the connection also goes on asynchronously: connect(2) must
    /// not be retried then).
    package static func connect(_ fd: Int32, to address: SocketAddress) throws(SocketError) -> Bool {
        if address.withSockAddr({ Glibc.connect(fd, $0, $1) }) == 0 { return true }
        let code = Glibc.errno
        guard code == EINPROGRESS || code == EINTR else { throw SocketError(errno: code, function: "connect") }
        return false
    }

    /// Ignores SIGPIPE process-wide (sends also pass MSG_NOSIGNAL; this covers anything else).
    package static func ignoreSIGPIPE() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
