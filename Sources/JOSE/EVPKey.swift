import COpenSSL

/// Owns one `EVP_PKEY` and frees it in `deinit`.
///
/// `@unchecked Sendable`: the key is fully built before the wrapper is shared and is never mutated
/// afterwards. OpenSSL 3 allows concurrent reads of one provider-native `EVP_PKEY`; every sign or
/// verify call creates its own `EVP_MD_CTX`.
package final class EVPKey: @unchecked Sendable {
    package let pointer: OpaquePointer

    /// Takes ownership of `pointer` (one reference).
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { EVP_PKEY_free(pointer) }

    // MARK: - Creation

    /// Generates a key of `algorithm` ("RSA", "EC"); `configure` sets generation parameters on the context.
    static func generate(
        algorithm: String,
        configure: (OpaquePointer) throws(JOSEError) -> Void
    ) throws(JOSEError) -> EVPKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else {
            throw OpenSSLErrors.failure(.cryptoFailure, "EVP_PKEY_CTX_new_from_name(\(algorithm)) failed")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else {
            throw OpenSSLErrors.failure(.cryptoFailure, "EVP_PKEY_keygen_init failed")
        }
        try configure(context)
        var key: OpaquePointer? = nil
        guard EVP_PKEY_generate(context, &key) == 1, let key else {
            throw OpenSSLErrors.failure(.cryptoFailure, "EVP_PKEY_generate(\(algorithm)) failed")
        }
        return EVPKey(taking: key)
    }

    /// Generates a key pair on P-256 (prime256v1): ES256 client secrets and the TLS CA's keys.
    package static func generateP256() throws(JOSEError) -> EVPKey {
        try generate(algorithm: "EC") { (context) throws(JOSEError) in
            guard EVP_PKEY_CTX_set_group_name(context, "P-256") == 1 else {
                throw OpenSSLErrors.failure(.cryptoFailure, "EVP_PKEY_CTX_set_group_name(P-256) failed")
            }
        }
    }

    /// The refusal for a password-protected PEM private key, the same in JOSE and TLS.
    package static let encryptedKeyMessage =
        "the PEM private key is encrypted; siwa-mock reads unencrypted keys only"
        + " (decrypt it with: openssl pkey -in key.pem -out key-unencrypted.pem)"

    /// Reads any PEM private key OpenSSL understands (PKCS#8, PKCS#1, SEC1) — the one reader for JOSE
    /// and TLS. The password callback answers "no password" and records that one was asked for, so an
    /// encrypted key is refused with ``encryptedKeyMessage`` instead of OpenSSL prompting on the terminal.
    ///
    /// - Parameter keyType: "RSA" or "EC" when the caller knows it: OpenSSL's decoder is then asked for
    ///   that type only, which skips its search over every decoder (about 3 ms per key, most of the
    ///   server's start-up; a hinted decode takes about 0.15 ms). Anything it does not read goes through
    ///   the general reader, which gives the precise error.
    package static func readPrivateKey(pem: String, keyType: String? = nil) throws(JOSEError) -> EVPKey {
        if let keyType, let key = decodeHinted(Array(pem.utf8), keyType: keyType, selection: siwa_EVP_PKEY_KEYPAIR()) {
            return key
        }
        var passwordRequested = false
        let key = try MemoryBIO.withReading(Array(pem.utf8)) { (bio) throws(JOSEError) in
            withUnsafeMutablePointer(to: &passwordRequested) { flag in
                PEM_read_bio_PrivateKey(
                    bio, nil,
                    { _, _, _, flag in
                        flag?.storeBytes(of: true, as: Bool.self)
                        return -1
                    }, flag)
            }
        }
        guard let key else {
            OpenSSLErrors.clear()
            if passwordRequested { throw JOSEError(.invalidKey, encryptedKeyMessage) }
            throw JOSEError(.invalidKey, "not a PEM private key (expected -----BEGIN PRIVATE KEY-----)")
        }
        return EVPKey(taking: key)
    }

    /// A PEM key of a known type through OpenSSL's decoder with its input, type and selection named;
    /// nil when it does not decode (the caller's general reader then explains why). Never prompts: the
    /// password callback refuses, so an encrypted key is nil here.
    static func decodeHinted(_ pem: [UInt8], keyType: String, selection: Int32) -> EVPKey? {
        var key: OpaquePointer?
        guard let context = OSSL_DECODER_CTX_new_for_pkey(&key, "PEM", nil, keyType, selection, nil, nil) else {
            OpenSSLErrors.clear()
            return nil
        }
        defer { OSSL_DECODER_CTX_free(context) }
        _ = OSSL_DECODER_CTX_set_pem_password_cb(context, { _, _, _, _ in -1 }, nil)
        let decoded = pem.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            var length = buffer.count
            return OSSL_DECODER_from_data(context, &cursor, &length)
        }
        guard decoded == 1, let key else {
            OpenSSLErrors.clear()
            if let key { EVP_PKEY_free(key) }
            return nil
        }
        return EVPKey(taking: key)
    }

    /// Reads a SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`).
    static func readPublicKey(pem: String, keyType: String? = nil) throws(JOSEError) -> EVPKey {
        if let keyType, let key = decodeHinted(Array(pem.utf8), keyType: keyType, selection: siwa_EVP_PKEY_PUBLIC_KEY())
        {
            return key
        }
        let key = try MemoryBIO.withReading(Array(pem.utf8)) { (bio) throws(JOSEError) in
            PEM_read_bio_PUBKEY(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let key else {
            OpenSSLErrors.clear()
            throw JOSEError(.invalidKey, "not a PEM public key (expected -----BEGIN PUBLIC KEY-----)")
        }
        return EVPKey(taking: key)
    }

    // MARK: - Inspection

    /// Whether the key is of the named type ("RSA", "EC").
    func isA(_ name: String) -> Bool { EVP_PKEY_is_a(pointer, name) == 1 }

    /// Size in bits (modulus size for RSA, field size for EC).
    var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }

    /// The key type for messages ("RSA", "EC", "ED25519", …).
    var typeName: String {
        guard let name = EVP_PKEY_get0_type_name(pointer) else { return "unknown" }
        return String(cString: name)
    }

    /// The EC curve name ("prime256v1", "secp384r1"), or nil for non-EC or explicit-parameter keys.
    var groupName: String? {
        var buffer = [CChar](repeating: 0, count: 80)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &buffer, buffer.count, &length) == 1 else {
            OpenSSLErrors.clear()
            return nil
        }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A big-number parameter ("n", "e", "qx") as big-endian bytes, left-padded to `paddedTo` if given.
    func bigNumber(_ name: String, paddedTo width: Int? = nil) -> [UInt8]? {
        var number: OpaquePointer? = nil
        guard EVP_PKEY_get_bn_param(pointer, name, &number) == 1, let number else {
            OpenSSLErrors.clear()
            return nil
        }
        defer { BN_clear_free(number) }
        let count = width ?? Int(siwa_BN_num_bytes(number))
        var bytes = [UInt8](repeating: 0, count: count)
        let written = bytes.withUnsafeMutableBufferPointer { BN_bn2binpad(number, $0.baseAddress, Int32(count)) }
        return written == count ? bytes : nil
    }

    /// Runs OpenSSL's pairwise consistency check (private and public halves belong together).
    func checkPairwise() throws(JOSEError) {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else {
            throw OpenSSLErrors.failure(.cryptoFailure, "EVP_PKEY_CTX_new_from_pkey failed")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_pairwise_check(context) == 1 else {
            throw OpenSSLErrors.failure(.invalidKey, "the private and public key components do not match")
        }
    }

    // MARK: - PEM

    /// PKCS#8 `PRIVATE KEY` PEM.
    package func privateKeyPEM() -> String {
        MemoryBIO.writtenText("PEM_write_bio_PrivateKey") { bio in
            PEM_write_bio_PrivateKey(bio, pointer, nil, nil, 0, nil, nil)
        }
    }

    /// SubjectPublicKeyInfo `PUBLIC KEY` PEM.
    func publicKeyPEM() -> String {
        MemoryBIO.writtenText("PEM_write_bio_PUBKEY") { bio in PEM_write_bio_PUBKEY(bio, pointer) }
    }
}
