import COpenSSL

/// Owns one OpenSSL `EVP_PKEY` used for TLS (a P-256 key when generated here).
final class PrivateKey {
    let pointer: OpaquePointer

    init(owning pointer: OpaquePointer) { self.pointer = pointer }

    /// Parses a PEM private key (PKCS#8 or traditional).
    convenience init(pem: String) throws(TLSError) {
        let key = try PEMBuffer.withReading(pem) { bio throws(TLSError) -> OpaquePointer in
            guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else {
                throw OpenSSLErrorQueue.failure(.invalidCredentials, "not a PEM private key")
            }
            return key
        }
        self.init(owning: key)
    }

    deinit { EVP_PKEY_free(pointer) }

    /// A fresh P-256 key (instant, unlike RSA: startup stays fast even when a CA is created).
    static func generateP256() throws(TLSError) -> PrivateKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_PKEY_CTX_new_from_name failed")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else { throw OpenSSLErrorQueue.failure(.internalFailure, "P-256 key generation failed") }
        return PrivateKey(owning: key)
    }

    /// PKCS#8 PEM.
    func pem() throws(TLSError) -> String {
        try PEMBuffer.written("PEM_write_bio_PrivateKey") { bio in
            PEM_write_bio_PrivateKey(bio, pointer, nil, nil, 0, nil, nil)
        }
    }
}
