extension AppleIdentityProvider {
    /// Drops the current store's expired codes and access tokens at the provider's clock time.
    ///
    /// The server calls it from a periodic maintenance tick, so expired entries go even when no
    /// request arrives (the store's own sweep runs only every `sweepInterval` mutations).
    /// - Returns: how many entries were removed.
    @discardableResult
    package func collectExpired() -> Int {
        let snapshot = self.snapshot
        return (try? snapshot.store.collectExpired(now: clock.nowSeconds)) ?? 0
    }
}
