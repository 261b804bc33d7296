import Background
import CSys
import SIWACore

/// Periodic housekeeping for `serve`: every `intervalMilliseconds` on the background scheduler, drops
/// expired codes and access tokens (so an idle server collects them too) and, when a sweep freed
/// entries, hands the freed heap back to the OS with glibc's `malloc_trim(0)`.
///
/// SIWACore stays free of threads: the store only sweeps when called; the scheduler owns the timing.
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

    /// Ticks every `intervalMilliseconds` on `scheduler`; false if no background thread could start.
    @discardableResult
    func start(on scheduler: BackgroundScheduler) -> Bool {
        scheduler.repeatEvery(Int64(intervalMilliseconds)) { [self] in self.tick() }
    }
}
