#if canImport(Glibc)
    import Glibc
#endif

/// Blocks SIGINT/SIGTERM in every thread (call before starting threads, which inherit the mask)
/// and lets the main thread wait for one synchronously — no async-signal-safety concerns.
enum SignalWaiter {
    static func blockTerminationSignals() {
        var set = terminationSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Returns the signal number that arrived.
    static func waitForTermination() -> Int32 {
        var set = terminationSet()
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }

    private static func terminationSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }
}
