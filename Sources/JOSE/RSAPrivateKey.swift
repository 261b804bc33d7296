import COpenSSL

/// An RSA private key (RS256 signing). Thread-safe: the underlying `EVP_PKEY` is only read.
package final class RSAPrivateKey: Sendable {
    let key: EVPKey
    private let derivedPublicKey: RSAPublicKey

    /// Wraps an RSA key after checking its type and size; derives the public key once.
    ///
    /// The public key wraps the same `EVP_PKEY`: it only reads `n` and `e`, verifies and writes
    /// SubjectPublicKeyInfo, none of which touches the private half. A copy through SPKI DER
    /// (`i2d_PUBKEY`/`d2i_PUBKEY`) cost more than the PEM decode itself, three times at every start
    /// (bench/RESULTS.md, issue #26).
    init(key: EVPKey) throws(JOSEError) {
        self.key = key
        self.derivedPublicKey = try RSAPublicKey(key: key)
    }

    /// Generates a new key. Slow (70–470 ms for 2048 bits): never on a request path.
    /// - Parameter bits: 2048…16384 (RFC 7518 §3.3 requires at least 2048 for RS256).
    package static func generate(bits: Int = 2048) throws(JOSEError) -> RSAPrivateKey {
        guard (2048...16384).contains(bits) else {
            throw JOSEError(.invalidKey, "RSA key size \(bits) is outside 2048…16384 bits")
        }
        let key = try EVPKey.generate(algorithm: "RSA") { (context) throws(JOSEError) in
            var size = bits
            let params = [
                OSSL_PARAM_construct_size_t(staticCString("bits"), &size),
                OSSL_PARAM_construct_end(),
            ]
            guard EVP_PKEY_CTX_set_params(context, params) == 1 else {
                throw OpenSSLErrors.failure(.cryptoFailure, "setting the RSA key size failed")
            }
        }
        return try RSAPrivateKey(key: key)
    }

    /// Loads a PEM private key (PKCS#8 `PRIVATE KEY` or PKCS#1 `RSA PRIVATE KEY`). Rejects non-RSA keys.
    package convenience init(pem: String) throws(JOSEError) {
        try self.init(key: EVPKey.readPrivateKey(pem: pem, keyType: "RSA"))
    }

    /// Builds a key from its JWK components (RFC 7518 §6.3), all big-endian bytes.
    ///
    /// Checks that the components belong together. Used to load published test keys (RFC 7515 A.2).
    package convenience init(
        n: [UInt8], e: [UInt8], d: [UInt8], p: [UInt8], q: [UInt8], dp: [UInt8], dq: [UInt8], qi: [UInt8]
    ) throws(JOSEError) {
        let builder = try KeyParameterBuilder()
        try builder.push("n", bigEndian: n)
        try builder.push("e", bigEndian: e)
        try builder.push("d", bigEndian: d)
        try builder.push("rsa-factor1", bigEndian: p)
        try builder.push("rsa-factor2", bigEndian: q)
        try builder.push("rsa-exponent1", bigEndian: dp)
        try builder.push("rsa-exponent2", bigEndian: dq)
        try builder.push("rsa-coefficient1", bigEndian: qi)
        let key = try builder.makeKey(algorithm: "RSA", selection: KeySelection.keyPair)
        try key.checkPairwise()
        try self.init(key: key)
    }

    /// PKCS#8 PEM text.
    package func pemPKCS8() -> String { key.privateKeyPEM() }

    /// The matching public key (computed once, when the private key was loaded).
    package var publicKey: RSAPublicKey { derivedPublicKey }

    /// RSASSA-PKCS1-v1_5 with SHA-256 over `message` (RFC 7518 §3.3); as many bytes as the modulus.
    package func signRS256(_ message: some Collection<UInt8>) throws(JOSEError) -> [UInt8] {
        try key.signSHA256(Array(message))
    }
}
