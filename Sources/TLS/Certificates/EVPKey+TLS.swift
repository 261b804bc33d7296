import JOSE

/// TLS keys are JOSE's `EVPKey` (one PEM reader and one P-256 generator for both modules); these report
/// failures as ``TLSError``.
extension EVPKey {
    /// Parses a PEM private key (PKCS#8 or traditional, any type); an encrypted key is refused with the
    /// same message JOSE gives, never a terminal prompt.
    static func readTLSPrivateKey(pem: String) throws(TLSError) -> EVPKey {
        do { return try readPrivateKey(pem: pem) } catch { throw error.reclassified(as: .invalidCredentials) }
    }

    /// A fresh P-256 key (instant, unlike RSA: startup stays fast even when a CA is created).
    static func generateTLSP256() throws(TLSError) -> EVPKey {
        do { return try generateP256() } catch { throw error.reclassified(as: .internalFailure) }
    }
}
