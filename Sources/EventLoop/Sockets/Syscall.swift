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

    /// What `poll` on one descriptor saw; `interrupted` (EINTR) lets a caller with a deadline recompute
    /// its wait instead of retrying blindly.
    package enum PollOutcome {
        case ready
        case timedOut
        case interrupted
    }

    /// `poll` on one descriptor for `events`, waiting at most `timeoutMilliseconds` (0: just look).
    package static func poll(_ fd: Int32, events: Int16, timeoutMilliseconds: Int32) throws(SocketError)
        -> PollOutcome
    {
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        let result = Glibc.poll(&descriptor, 1, timeoutMilliseconds)
        if result > 0 { return .ready }
        if result == 0 { return .timedOut }
        let code = Glibc.errno
        if code == EINTR { return .interrupted }
        throw SocketError(errno: code, function: "poll")
    }

    /// `epoll_wait` into the loop's split arrays (event data, event flags): the number of events, or nil
    /// when a signal interrupted the wait (EINTR), so the loop recomputes its timeout.
    package static func epollWait(
        _ epollFD: Int32, datas: UnsafeMutablePointer<UInt64>?, flags: UnsafeMutablePointer<UInt32>?,
        maxEvents: Int32, timeoutMilliseconds: Int32
    ) throws(SocketError) -> Int? {
        let count = csys_epoll_wait_split(epollFD, datas, flags, maxEvents, timeoutMilliseconds)
        if count >= 0 { return Int(count) }
        let code = Glibc.errno
        if code == EINTR { return nil }
        throw SocketError(errno: code, function: "epoll_wait")
    }

    /// A non-blocking, close-on-exec eventfd (the event loops' wake-up).
    package static func eventFD() throws(SocketError) -> Int32 {
        try check("eventfd") { csys_eventfd() }
    }

    /// Adds one to an eventfd's counter, waking whoever polls it; a full counter already wakes it.
    static func signalEvent(_ fd: Int32) {
        var one: UInt64 = 1
        _ = try? run("write") { Glibc.write(fd, &one, 8) }
    }

    /// Reads (and so resets) an eventfd's counter; nothing to read is fine.
    static func drainEvent(_ fd: Int32) {
        var value: UInt64 = 0
        _ = try? run("read") { Glibc.read(fd, &value, 8) }
    }

    /// A close-on-exec epoll instance.
    static func epollCreate() throws(SocketError) -> Int32 {
        try check("epoll_create1") { csys_epoll_create() }
    }

    /// A close-on-exec TCP socket of `family` (`AF_INET`, `AF_INET6`), non-blocking unless told otherwise.
    static func tcpSocket(family: Int32, nonBlocking: Bool = true) throws(SocketError) -> Int32 {
        let flags = csys_SOCK_STREAM | csys_SOCK_CLOEXEC | (nonBlocking ? csys_SOCK_NONBLOCK : 0)
        return try check("socket") { Glibc.socket(family, flags, 0) }
    }

    /// One attempt to send `bytes` without blocking, whatever comes of it: a last word before closing
    /// (a refusal at the connection limit, the answer to plaintext on a TLS port).
    static func sendOnce(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            _ = try? run("send") { Glibc.send(fd, raw.baseAddress, raw.count, csys_MSG_NOSIGNAL) }
        }
    }

    /// The socket's pending error (`SO_ERROR`), 0 when none: how a non-blocking connect ended.
    static func pendingError(_ fd: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = try? check("getsockopt") { getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) }
        return code
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
