import CSys
import Glibc
import Locking

/// A server on event loops, speaking HTTP (the HTTP module's initializer) or a stream protocol (SMTP).
/// `start()` binds and returns; `shutdown()` stops accepting, finishes in-flight exchanges and returns
/// when all loops have exited.
///
/// Each of `configuration.eventLoops` threads runs one `EpollLoop` with its own epoll instance and its own
/// SO_REUSEPORT listener, so the kernel spreads connections across loops and no lock sits on the hot path.
package final class EventLoopServer: @unchecked Sendable {
    // @unchecked: the mutable state (threads, wake descriptors, port) is guarded by `state`'s mutex.
    struct RunState {
        var started = false
        var stopped = false
        var port = 0
        var threads: [pthread_t] = []
        var wakeFDs: [Int32] = []
    }

    let context: ServerContext
    let state = Lock(RunState())

    /// A server speaking `service`'s protocol (the HTTP module's service for HTTP).
    package init(
        configuration: ListenerConfiguration, service: any ConnectionService,
        onDiagnostic: (@Sendable (ConnectionDiagnostic) -> Void)?
    ) {
        context = ServerContext(configuration: configuration, service: service, onDiagnostic: onDiagnostic)
    }

    /// A server for a line-oriented protocol (SMTP): each connection gets a session from `service`;
    /// `configuration.idleTimeoutMilliseconds` bounds the time between replies.
    package convenience init(
        configuration: ListenerConfiguration, stream service: any StreamService,
        onDiagnostic: (@Sendable (ConnectionDiagnostic) -> Void)? = nil
    ) {
        self.init(
            configuration: configuration, service: StreamConnectionService(service: service),
            onDiagnostic: onDiagnostic)
    }

    deinit { shutdown() }

    /// Binds the listeners and starts the event-loop threads.
    /// - Throws: `ListenError` when the address is invalid or taken, or resources run out.
    package func start() throws {
        try state.withLock { (run: inout RunState) throws(ListenError) in
            guard !run.started else { return }
            Syscall.ignoreSIGPIPE()
            let configuration = context.configuration
            let loopCount = max(1, configuration.eventLoops)
            let (listeners, port) = try Listener.bind(
                host: configuration.host, port: configuration.port, count: loopCount)
            var loops: [EpollLoop] = []
            do {
                for fd in listeners { loops.append(try EpollLoop(listener: fd, context: context)) }
            } catch {
                loops.forEach { $0.closeAll() }
                loops.forEach { Syscall.close($0.wakeFD) }
                listeners.dropFirst(loops.count).forEach(Syscall.close)
                throw ListenError(.systemResource, "cannot create event loop: \(error)")
            }
            for (index, loop) in loops.enumerated() {
                let wakeFD = loop.wakeFD
                guard let thread = LoopThread.start(loop) else {
                    // Stop the loops already running; the ones never started still own their descriptors.
                    Self.stop(threads: run.threads, wakeFDs: run.wakeFDs, context: context)
                    loops[index...].forEach { $0.closeAll() }
                    loops[index...].forEach { Syscall.close($0.wakeFD) }
                    run.threads = []
                    run.wakeFDs = []
                    throw ListenError(.systemResource, "cannot start event-loop thread")
                }
                run.threads.append(thread)
                run.wakeFDs.append(wakeFD)
            }
            run.port = port
            run.started = true
        }
    }

    /// The bound port (meaningful after `start()`).
    package var port: Int { state.withLock { $0.port } }

    /// Stops accepting, lets responses already under way finish, closes idle connections and joins the
    /// loop threads. Returns within about a second even if clients stall. Safe to call more than once.
    package func shutdown() {
        Self.shutdown([self])
    }

    /// Shuts several servers down in parallel (an HTTP and an HTTPS listener drain within one grace period).
    package static func shutdown(_ servers: [EventLoopServer]) {
        let stopping: [(threads: [pthread_t], wakeFDs: [Int32], context: ServerContext)] = servers.compactMap {
            server in
            let threads: [pthread_t] = server.state.withLock { run in
                guard run.started, !run.stopped else { return [] }
                run.stopped = true
                return run.threads
            }
            guard !threads.isEmpty else { return nil }
            return (threads, server.state.withLock { $0.wakeFDs }, server.context)
        }
        for server in stopping { signalStop(wakeFDs: server.wakeFDs, context: server.context) }
        for server in stopping {
            for thread in server.threads { pthread_join(thread, nil) }
            server.wakeFDs.forEach(Syscall.close)
        }
    }

    /// Sets the shared stop flag, wakes every loop through its eventfd and joins the threads.
    static func stop(threads: [pthread_t], wakeFDs: [Int32], context: ServerContext) {
        guard !threads.isEmpty else { return }
        signalStop(wakeFDs: wakeFDs, context: context)
        for thread in threads { pthread_join(thread, nil) }
        wakeFDs.forEach(Syscall.close)
    }

    /// Sets the shared stop flag and wakes every loop through its eventfd.
    static func signalStop(wakeFDs: [Int32], context: ServerContext) {
        context.stopping.store(true, ordering: .sequentiallyConsistent)
        for fd in wakeFDs { Syscall.signalEvent(fd) }
    }
}
