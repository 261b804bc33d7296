#if canImport(Glibc)
    import Glibc
#endif

/// Blocks SIGINT/SIGTERM/SIGHUP in every thread (call before starting threads, which inherit the mask)
/// and lets the main thread wait for them synchronously — no async-signal-safety concerns.
enum SignalWaiter {
    static func blockTerminationSignals() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Waits for SIGTERM or SIGINT and returns its number. Each SIGHUP in between runs `onHangUp`
    /// (reload the scenario, or log that there is nothing to reload) instead of ending the process,
    /// which is what SIGHUP's default action would do with no drain and no log line.
    static func waitForTermination(onHangUp: () -> Void = {}) -> Int32 {
        var set = signalSet()
        while true {
            var received: Int32 = 0
            guard sigwait(&set, &received) == 0 else { continue }
            if received == SIGHUP {
                onHangUp()
                continue
            }
            return received
        }
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGHUP)
        return set
    }
}
