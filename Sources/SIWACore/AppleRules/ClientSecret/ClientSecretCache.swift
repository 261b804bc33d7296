import Locking

/// Secrets whose signature already verified, keyed by the SHA-256 of the secret text.
///
/// Bounded: entries are dropped at their `exp`, and when full the expired ones go first, then
/// everything (a cold cache only costs one ES256 verification per secret, ~0.08 ms).
final class ClientSecretCache: Sendable {
    private let capacity: Int
    private let entries: Lock<[[UInt8]: ClientSecretClaims]>

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        self.entries = Lock([:])
    }

    func lookup(_ digest: [UInt8], now: Int64) -> ClientSecretClaims? {
        entries.withLock { entries in
            guard let claims = entries[digest] else { return nil }
            if claims.expiresAt <= now {
                entries[digest] = nil
                return nil
            }
            return claims
        }
    }

    func store(_ digest: [UInt8], _ claims: ClientSecretClaims, now: Int64) {
        entries.withLock { entries in
            if entries.count >= capacity {
                entries = entries.filter { $0.value.expiresAt > now }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[digest] = claims
        }
    }

    var count: Int { entries.withLock { $0.count } }
}
