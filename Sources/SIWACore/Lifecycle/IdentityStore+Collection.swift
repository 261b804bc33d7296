extension IdentityStore {
    /// Drops expired codes and access tokens now (also done every `sweepInterval` mutations, and by
    /// the server's periodic maintenance tick so an idle server collects them too).
    ///
    /// - Returns: how many entries were removed.
    @discardableResult
    public func collectExpired(now: Int64) -> Int {
        state.withLock { state in
            let before = state.codes.count + state.accessTokens.count + state.refreshTokens.count
            sweep(&state, now: now)
            return before - (state.codes.count + state.accessTokens.count + state.refreshTokens.count)
        }
    }

    func noteMutation(_ state: inout State, now: Int64) {
        state.mutationsSinceSweep += 1
        if state.mutationsSinceSweep >= limits.sweepInterval || state.codes.count > limits.maxCodes
            || state.accessTokens.count > limits.maxAccessTokens || state.refreshTokens.count > limits.maxRefreshTokens
        {
            sweep(&state, now: now)
        }
    }

    /// Codes go at their deadline whatever their state (a reused code older than its lifetime is then
    /// reported as expired); access tokens at theirs; over-full tables lose their oldest entries.
    func sweep(_ state: inout State, now: Int64) {
        state.mutationsSinceSweep = 0
        state.codes = state.codes.filter { $0.value.expiresAt > now }
        state.accessTokens = state.accessTokens.filter { $0.value.expiresAt > now }
        if state.codes.count > limits.maxCodes {
            let keep = state.codes.sorted { $0.value.issuedAt > $1.value.issuedAt }.prefix(limits.maxCodes / 2)
            state.codes = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
        }
        if state.accessTokens.count > limits.maxAccessTokens {
            let keep = state.accessTokens.sorted { $0.value.issuedAt > $1.value.issuedAt }.prefix(
                limits.maxAccessTokens / 2)
            state.accessTokens = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
        }
        if state.refreshTokens.count > limits.maxRefreshTokens {
            let keep = state.refreshTokens.sorted { $0.value.sequence > $1.value.sequence }
                .prefix(limits.maxRefreshTokens / 2)
            state.refreshTokens = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
        }
    }
}
