#if canImport(Glibc)
    import Glibc
#endif

/// Starts detached background threads for `serve`'s housekeeping (maintenance ticks, key supply).
enum BackgroundThread {
    /// Runs `body` on a new detached thread; false if the thread could not start.
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(ThreadBody(body))
        var thread = pthread_t()
        let started =
            pthread_create(
                &thread, nil,
                { raw in
                    let body = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
                    body.run()
                    return nil
                }, box.toOpaque()) == 0
        if started { pthread_detach(thread) } else { box.release() }
        return started
    }

    /// Runs `body` every `intervalMilliseconds` on a new thread, until the process exits.
    static func every(milliseconds intervalMilliseconds: Int, _ body: @escaping @Sendable () -> Void) -> Bool {
        start {
            while true {
                usleep(UInt32(intervalMilliseconds) * 1000)
                body()
            }
        }
    }
}
