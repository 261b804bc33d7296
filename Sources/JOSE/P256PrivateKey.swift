/// A P-256 private key (ES256 client secrets, `keygen`).
package final class P256PrivateKey: Sendable {
    let key: EVPKey
    private let derivedPublicKey: P256PublicKey

    /// Wraps an EC key after checking it is on P-256; derives the public key once (wrapping the same
    /// `EVP_PKEY`, as `RSAPrivateKey` does: the public key reads only the public point).
    init(key: EVPKey) throws(JOSEError) {
        self.key = key
        self.derivedPublicKey = try P256PublicKey(key: key)
    }

    /// Generates a new key pair on P-256 (prime256v1).
    package static func generate() throws(JOSEError) -> P256PrivateKey {
        try P256PrivateKey(key: EVPKey.generateP256())
    }

    /// Loads a `.p8` (PKCS#8 `PRIVATE KEY`) or SEC1 `EC PRIVATE KEY`. Rejects other curves and key types.
    package convenience init(pem: String) throws(JOSEError) {
        try self.init(key: EVPKey.readPrivateKey(pem: pem, keyType: "EC"))
    }

    /// Builds a key from JWK components (RFC 7518 §6.2): 32-byte `d`, `x`, `y`; checks they match.
    package convenience init(d: [UInt8], x: [UInt8], y: [UInt8]) throws(JOSEError) {
        guard d.count == 32, x.count == 32, y.count == 32 else {
            throw JOSEError(.invalidKey, "P-256 d, x and y must be 32 bytes each")
        }
        let builder = try KeyParameterBuilder()
        try builder.push("group", utf8: "prime256v1")
        try builder.push("pub", octets: [0x04] + x + y)
        try builder.push("priv", bigEndian: d)
        let key = try builder.makeKey(algorithm: "EC", selection: KeySelection.keyPair)
        try key.checkPairwise()
        try self.init(key: key)
    }

    /// PKCS#8 `PRIVATE KEY` PEM (the `.p8` form Apple issues).
    package func pemPKCS8() -> String { key.privateKeyPEM() }

    /// The matching public key (computed once, when the private key was loaded).
    package var publicKey: P256PublicKey { derivedPublicKey }

    /// ES256 signature in JOSE form: 64 bytes, `r || s`, each left-padded to 32 bytes (RFC 7518 §3.4).
    /// ECDSA is randomized: two signatures of the same message differ.
    package func signES256(_ message: some Collection<UInt8>) throws(JOSEError) -> [UInt8] {
        let der = try key.signSHA256(Array(message))
        return try ECDSASignature.raw(fromDER: der)
    }
}
