#if canImport(Glibc)
    import Glibc
#endif

/// Starts detached pthreads running a closure (pthread passes the closure as one raw pointer).
enum WorkerThread {
    final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts a detached thread; false if the system refused (the closure is then dropped).
    static func start(_ run: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body(run))
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, box.toOpaque())
        guard result == 0 else {
            box.release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
