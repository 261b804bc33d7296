#if canImport(Glibc)
    import Glibc
#endif

/// The code, refresh-token and access-token hashes of one presented token, fetched in the round trip that
/// finds the token's user for the journal (`RedisGrantStore.userID(forToken:)`, before the handler runs),
/// and kept on that thread for the handler's own look-up of the same token a moment later
/// (`lookUpCode`, `lookUpRefreshToken`, `liveTokenOwner`): a redemption then costs two round trips
/// instead of three (docs/scale-out.md, "Sizing").
///
/// A request runs on one store worker from the journal's look-up to the handler, so a thread-local slot
/// needs no lock. A prefetch is used once, only by the store that made it, for the same token, and only
/// within `maximumAgeNanoseconds`: it stands in for a read the handler would have made microseconds
/// later. Decisions stay atomic in the Lua scripts (`redeem` re-checks the code's state), so a prefetch
/// that went stale in between is no worse than the separate round trip it replaces.
final class RedisRecordPrefetch {
    let store: ObjectIdentifier
    let token: String
    let takenAt: Int64
    /// "c", "r", "a" → the hash's fields (empty when there is no such key).
    let records: [String: [String: String]]

    init(store: ObjectIdentifier, token: String, records: [String: [String: String]]) {
        self.store = store
        self.token = token
        self.records = records
        takenAt = Self.now()
    }

    static let maximumAgeNanoseconds: Int64 = 100_000_000

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in
            if let raw { Unmanaged<RedisRecordPrefetch>.fromOpaque(raw).release() }
        }
        return key
    }()

    /// Keeps `prefetch` for this thread (replacing what was there).
    static func keep(_ prefetch: RedisRecordPrefetch) {
        clear()
        pthread_setspecific(key, Unmanaged.passRetained(prefetch).toOpaque())
    }

    /// This thread's prefetch of `token` by `store`, if fresh; it is used up either way.
    static func take(token: String, store: ObjectIdentifier) -> RedisRecordPrefetch? {
        guard let raw = pthread_getspecific(key) else { return nil }
        pthread_setspecific(key, nil)
        let prefetch = Unmanaged<RedisRecordPrefetch>.fromOpaque(raw).takeRetainedValue()
        guard prefetch.store == store, prefetch.token == token,
            Self.now() - prefetch.takenAt <= maximumAgeNanoseconds
        else { return nil }
        return prefetch
    }

    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    static func clear() {
        guard let raw = pthread_getspecific(key) else { return }
        pthread_setspecific(key, nil)
        Unmanaged<RedisRecordPrefetch>.fromOpaque(raw).release()
    }
}
