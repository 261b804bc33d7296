extension IdentityStore {
    /// Drops expired codes and access tokens now (also done every `sweepInterval` mutations, and by
    /// the server's periodic maintenance tick so an idle server collects them too).
    ///
    /// - Returns: how many entries were removed.
    @discardableResult
    package func collectExpired(now: Int64) -> Int {
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
            || state.bytes.codes > limits.maxCodeBytes || state.bytes.accessTokens > limits.maxAccessTokenBytes
            || state.bytes.refreshTokens > limits.maxRefreshTokenBytes
        {
            sweep(&state, now: now)
        }
    }

    /// Codes go at their deadline whatever their state (a reused code older than its lifetime is then
    /// reported as expired); access tokens at theirs; over-full tables lose their oldest entries.
    ///
    /// Costs what expired (`ExpiryQueue`), plus an occasional rebuild of a queue whose stale entries
    /// (removed or evicted keys) outnumber the table's, so the queue stays within twice the table.
    func sweep(_ state: inout State, now: Int64) {
        state.mutationsSinceSweep = 0
        let expiredCodes = state.codeExpiries.popExpired(now: now)
        let expiredTokens = state.accessTokenExpiries.popExpired(now: now)
        state.expiryVisits += expiredCodes.count + expiredTokens.count
        for entry in expiredCodes where state.codes[entry.key]?.sequence == entry.sequence {
            state.removeCode(entry.key)
        }
        for entry in expiredTokens where state.accessTokens[entry.key]?.sequence == entry.sequence {
            state.removeAccessToken(entry.key)
        }
        if state.codeExpiries.count > 2 * state.codes.count + 1024 {
            state.codeExpiries.rebuild(
                state.codes.map { .init(expiresAt: $0.value.expiresAt, key: $0.key, sequence: $0.value.sequence) })
        }
        if state.accessTokenExpiries.count > 2 * state.accessTokens.count + 1024 {
            state.accessTokenExpiries.rebuild(
                state.accessTokens.map {
                    .init(expiresAt: $0.value.expiresAt, key: $0.key, sequence: $0.value.sequence)
                })
        }
        // A table over its entry or byte cap keeps its newest entries, up to half of both caps.
        if state.codes.count > limits.maxCodes || state.bytes.codes > limits.maxCodeBytes {
            let newestFirst = state.codes.sorted { $0.value.sequence > $1.value.sequence }
            for code in Self.evicted(newestFirst, limits.maxCodes, limits.maxCodeBytes, { $1.bytes($0) }) {
                state.removeCode(code)
            }
        }
        if state.accessTokens.count > limits.maxAccessTokens || state.bytes.accessTokens > limits.maxAccessTokenBytes {
            let newestFirst = state.accessTokens.sorted { $0.value.sequence > $1.value.sequence }
            for token in Self.evicted(newestFirst, limits.maxAccessTokens, limits.maxAccessTokenBytes, { $1.bytes($0) })
            {
                state.removeAccessToken(token)
            }
        }
        if state.refreshTokens.count > limits.maxRefreshTokens
            || state.bytes.refreshTokens > limits.maxRefreshTokenBytes
        {
            let newestFirst = state.refreshTokens.sorted { $0.value.sequence > $1.value.sequence }
            for token in Self.evicted(
                newestFirst, limits.maxRefreshTokens, limits.maxRefreshTokenBytes, { $1.bytes($0) })
            {
                state.removeRefreshToken(token)
            }
        }
    }

    /// The keys past the newest entries that fit in half of `maxEntries` and half of `maxBytes`.
    static func evicted<Record>(
        _ newestFirst: [(key: String, value: Record)], _ maxEntries: Int, _ maxBytes: Int,
        _ size: (String, Record) -> Int
    ) -> [String] {
        var keptBytes = 0
        var evicted: [String] = []
        for (index, entry) in newestFirst.enumerated() {
            let bytes = size(entry.key, entry.value)
            if index < maxEntries / 2 && keptBytes + bytes <= maxBytes / 2 {
                keptBytes += bytes
            } else {
                evicted.append(entry.key)
            }
        }
        return evicted
    }
}
