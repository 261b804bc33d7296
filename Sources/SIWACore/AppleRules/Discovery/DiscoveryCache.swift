import Locking

/// The serialized discovery document of one provider snapshot, computed on first use. A snapshot
/// belongs to one scenario, so a scenario that changes `issuer` (`PUT /mock/scenario`, a reload)
/// brings a new cache and the document follows it.
final class DiscoveryCache: Sendable {
    private let cached = Lock<(publicURL: String, bytes: [UInt8])?>(nil)

    /// The document for `publicURL` and `issuer` (the server has one public URL, so this computes once).
    func bytes(publicURL: String, issuer: String) -> [UInt8] {
        cached.withLock { cached in
            if let cached, cached.publicURL == publicURL { return cached.bytes }
            let bytes = DiscoveryDocument.serialized(publicURL: publicURL, issuer: issuer)
            cached = (publicURL, bytes)
            return bytes
        }
    }
}
