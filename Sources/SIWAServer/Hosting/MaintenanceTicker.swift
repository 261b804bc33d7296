import Background
import CSys
import SIWACore

/// Periodic housekeeping for every running mock (`serve` and `SIWAMockTesting`, through `MockHost`): every `intervalMilliseconds` on the background scheduler, drops
/// expired codes and access tokens (so an idle server collects them too) and, when a sweep freed
/// entries, hands the freed heap back to the OS with glibc's `malloc_trim(0)`.
///
/// SIWACore stays free of threads: the store only sweeps when called; the scheduler owns the timing.
package struct MaintenanceTicker: Sendable {
    package let provider: AppleIdentityProvider
    package var intervalMilliseconds: Int = 15_000
    /// Called after each tick that removed entries, with the count (for logs and tests).
    package var onCollected: @Sendable (Int) -> Void = { _ in }

    /// One maintenance pass: collect, then trim the heap if anything was freed.
    ///
    /// - Returns: how many entries were removed.
    @discardableResult
    package func tick() -> Int {
        let removed = provider.collectExpired()
        if removed > 0 {
            _ = csys_malloc_trim()
            onCollected(removed)
        }
        return removed
    }

    package init(
        provider: AppleIdentityProvider, intervalMilliseconds: Int = 15_000,
        onCollected: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.provider = provider
        self.intervalMilliseconds = intervalMilliseconds
        self.onCollected = onCollected
    }

    /// Ticks every `intervalMilliseconds` on `scheduler`; false if no background thread could start.
    @discardableResult
    package func start(on scheduler: BackgroundScheduler) -> Bool {
        scheduler.repeatEvery(Int64(intervalMilliseconds)) { [self] in self.tick() }
    }
}
