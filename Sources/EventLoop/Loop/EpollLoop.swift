import CSys
import Glibc

/// One single-threaded epoll loop with its own listener, connections and timer heap.
///
/// Everything here runs on the loop's thread; the only cross-thread inputs are the shared atomics in
/// `ServerContext`, the eventfd that `EventLoopServer.shutdown()` writes to, and posts to parked
/// connections (`LoopInbox`). The protocol spoken is the service's (`ConnectionService`).
package final class EpollLoop: ConnectionContext {
    static let readBufferSize = 64 * 1024
    static let maxEvents: Int32 = 256
    /// epoll data values that are not connection descriptors.
    static let listenerToken: UInt64 = .max
    static let wakeToken: UInt64 = .max - 1
    /// Bound on how long `shutdown()` waits for in-flight responses.
    static let shutdownGrace: Int64 = 900_000_000

    let context: ServerContext
    /// This loop's side of the service: makes sessions, hears the end of each pass.
    let handler: any LoopHandler
    let epollFD: Int32
    let wakeFD: Int32
    /// What other threads posted to parked connections, delivered on wake-up.
    package let inbox: LoopInbox
    // The loop's state is touched only on the loop's thread, and no access here overlaps another (none
    // is passed `inout` to code that reaches the loop again), so the dynamic exclusivity checks
    // (`swift_beginAccess`, ~60 instructions each, a dozen per request) are switched off for these
    // fields (`@exclusivity(unchecked)`; bench/RESULTS.md, issue #40).
    @exclusivity(unchecked) var listenerFD: Int32
    /// Connections indexed by descriptor (descriptors are small and dense).
    @exclusivity(unchecked) var connections: [Connection?] = []
    @exclusivity(unchecked) var connectionCount = 0
    @exclusivity(unchecked) var nextSerial: UInt64 = 1
    @exclusivity(unchecked) var timers = TimerHeap()
    /// Time at the start of the current iteration.
    @exclusivity(unchecked) package private(set) var now: Int64 = 0
    /// Set when accept hit EMFILE/ENFILE: the listener is out of epoll until then.
    @exclusivity(unchecked) var listenerPausedUntil: Int64? = nil
    /// Set once `ServerContext.stopping` was seen: the listener is closed and the loop drains.
    @exclusivity(unchecked) var stopDeadline: Int64? = nil
    let readBuffer: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) var eventDatas: [UInt64]
    @exclusivity(unchecked) var eventFlags: [UInt32]

    init(listener: Int32, context: ServerContext) throws(SocketError) {
        self.context = context
        self.handler = context.service.makeLoopHandler()
        self.listenerFD = listener
        let epollFD = try Syscall.epollCreate()
        let wakeFD: Int32
        do {
            wakeFD = try Syscall.eventFD()
        } catch {
            Syscall.close(epollFD)
            throw error
        }
        self.epollFD = epollFD
        self.wakeFD = wakeFD
        self.inbox = LoopInbox(wakeFD: wakeFD)
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        eventDatas = Array(repeating: 0, count: Int(Self.maxEvents))
        eventFlags = Array(repeating: 0, count: Int(Self.maxEvents))
        try Syscall.epollControl(epollFD, csys_EPOLL_CTL_ADD, listener, events: csys_EPOLLIN, token: Self.listenerToken)
        try Syscall.epollControl(epollFD, csys_EPOLL_CTL_ADD, wakeFD, events: csys_EPOLLIN, token: Self.wakeToken)
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Runs until shutdown has drained every connection (or the grace period ran out).
    func run() {
        while true {
            now = MonotonicClock.now()
            if context.stopping.load(ordering: .relaxed) && stopDeadline == nil { beginStopping() }
            if let stop = stopDeadline, connectionCount == 0 || now >= stop { break }
            let timeout = waitTimeoutMilliseconds()
            let waited = eventDatas.withUnsafeMutableBufferPointer { datas in
                eventFlags.withUnsafeMutableBufferPointer { flags in
                    Result { () throws(SocketError) -> Int? in
                        try Syscall.epollWait(
                            epollFD, datas: datas.baseAddress, flags: flags.baseAddress, maxEvents: Self.maxEvents,
                            timeoutMilliseconds: timeout)
                    }
                }
            }
            now = MonotonicClock.now()
            // A failed epoll leaves nothing sensible to do but drain and exit; a signal just waits again.
            guard case .success(let ready) = waited else { break }
            guard let count = ready else { continue }
            for i in 0..<count {
                let data = eventDatas[i]
                let flags = eventFlags[i]
                switch data {
                case Self.listenerToken: acceptConnections()
                case Self.wakeToken:
                    drainWake()
                    deliverPosts()
                default: handleEvent(fd: Int32(truncatingIfNeeded: data), flags: flags)
                }
            }
            fireTimers()
            resumeListenerIfDue()
            handler.passEnded()
        }
        inbox.close()
        closeAll()
        handler.passEnded()
    }

    /// Set once shutdown began: sessions close idle connections instead of waiting for more input.
    package var isStopping: Bool { stopDeadline != nil }

    package var idleTimeout: Int64 {
        MonotonicClock.nanoseconds(milliseconds: context.configuration.idleTimeoutMilliseconds)
    }

    package var handshakeTimeout: Int64 {
        MonotonicClock.nanoseconds(milliseconds: context.configuration.handshakeTimeoutMilliseconds)
    }

    /// epoll_wait's timeout: until the next timer, listener resume or shutdown deadline.
    func waitTimeoutMilliseconds() -> Int32 {
        var next = timers.earliest ?? .max
        if let paused = listenerPausedUntil { next = min(next, paused) }
        if let stop = stopDeadline { next = min(next, stop) }
        if next == .max { return -1 }
        let delta = next - now
        if delta <= 0 { return 0 }
        return Int32(min((delta + 999_999) / 1_000_000, 60_000))
    }

    func drainWake() {
        Syscall.drainEvent(wakeFD)
    }

    /// Stops accepting, closes idle connections and lets the others finish (RFC 9112 §9.6: close after
    /// the response in flight).
    func beginStopping() {
        stopDeadline = now + Self.shutdownGrace
        closeListener()
        for case let connection? in connections {
            connection.closeAfterWrite = true
            if connection.isReading && !connection.session.hasPartialInput { close(connection) }
        }
    }

    func closeListener() {
        guard listenerFD >= 0 else { return }
        try? Syscall.epollControl(epollFD, csys_EPOLL_CTL_DEL, listenerFD)
        Syscall.close(listenerFD)
        listenerFD = -1
        listenerPausedUntil = nil
    }

    /// Closes the loop's connections, listener and epoll instance. The eventfd stays open: the server
    /// may still write to it and closes it after joining the thread (`closeWake`), so a write can never
    /// land on a recycled descriptor.
    func closeAll() {
        for case let connection? in connections { close(connection) }
        closeListener()
        Syscall.close(epollFD)
    }

    func handleEvent(fd: Int32, flags: UInt32) {
        guard fd >= 0, Int(fd) < connections.count, let connection = connections[Int(fd)] else { return }
        if flags & (csys_EPOLLIN | csys_EPOLLRDHUP | csys_EPOLLHUP | csys_EPOLLERR) != 0 {
            readable(connection, flags: flags)
            guard isOpen(connection) else { return }
        }
        if flags & csys_EPOLLOUT != 0 && connection.hasPendingOutput {
            writable(connection)
        }
    }
}
