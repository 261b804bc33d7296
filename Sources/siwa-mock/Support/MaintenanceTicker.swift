import CSys
import SIWACore

#if canImport(Glibc)
    import Glibc
#endif

/// Periodic housekeeping for `serve`: every `intervalMilliseconds` on a background thread, drops
/// expired codes and access tokens (so an idle server collects them too) and, when a sweep freed
/// entries, hands the freed heap back to the OS with glibc's `malloc_trim(0)`.
///
/// SIWACore stays free of threads: the store only sweeps when called; this type owns the timing.
struct MaintenanceTicker: Sendable {
    let provider: AppleIdentityProvider
    var intervalMilliseconds: Int = 15_000
    /// Called after each tick that removed entries, with the count (for logs and tests).
    var onCollected: @Sendable (Int) -> Void = { _ in }

    /// One maintenance pass: collect, then trim the heap if anything was freed.
    ///
    /// - Returns: how many entries were removed.
    @discardableResult
    func tick() -> Int {
        let removed = provider.collectExpired()
        if removed > 0 {
            _ = csys_malloc_trim()
            onCollected(removed)
        }
        return removed
    }

    /// Starts the ticking thread (it runs until the process exits); false if it could not start.
    @discardableResult
    func start() -> Bool {
        BackgroundThread.every(milliseconds: intervalMilliseconds) { [self] in _ = self.tick() }
    }
}
