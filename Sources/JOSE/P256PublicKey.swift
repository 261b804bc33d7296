import COpenSSL

/// A P-256 public key (ES256 client-secret verification).
package final class P256PublicKey: Sendable {
    let key: EVPKey
    /// Affine x coordinate, 32 bytes big-endian (JWK `x`).
    package let x: [UInt8]
    /// Affine y coordinate, 32 bytes big-endian (JWK `y`).
    package let y: [UInt8]

    /// Wraps an EC key after checking it is on P-256.
    init(key: EVPKey) throws(JOSEError) {
        try Self.requireP256(key)
        guard let x = key.bigNumber("qx", paddedTo: 32), let y = key.bigNumber("qy", paddedTo: 32) else {
            throw OpenSSLErrors.failure(.cryptoFailure, "reading the P-256 public point failed")
        }
        self.key = key
        self.x = x
        self.y = y
    }

    /// From a SubjectPublicKeyInfo PEM (`PUBLIC KEY`). Rejects RSA keys and other curves.
    package convenience init(pem: String) throws(JOSEError) {
        try self.init(key: EVPKey.readPublicKey(pem: pem, keyType: "EC"))
    }

    /// From JWK affine coordinates (32 bytes each). Rejects points that are not on the curve.
    package convenience init(x: [UInt8], y: [UInt8]) throws(JOSEError) {
        guard x.count == 32, y.count == 32 else {
            throw JOSEError(.invalidKey, "P-256 x and y must be 32 bytes each, got \(x.count) and \(y.count)")
        }
        let builder = try KeyParameterBuilder()
        try builder.push("group", utf8: "prime256v1")
        try builder.push("pub", octets: [0x04] + x + y)
        let key: EVPKey
        do {
            key = try builder.makeKey(algorithm: "EC", selection: KeySelection.publicKey)
        } catch {
            throw JOSEError(.invalidKey, "(x, y) is not a point on P-256")
        }
        try self.init(key: key)
    }

    /// SubjectPublicKeyInfo PEM text.
    package func pem() -> String { key.publicKeyPEM() }

    /// Verifies a JOSE `r || s` signature; anything not exactly 64 bytes (e.g. DER) is rejected.
    package func verifyES256(signature: [UInt8], message: some Collection<UInt8>) -> Bool {
        guard let der = ECDSASignature.der(fromRaw: signature) else { return false }
        return key.verifySHA256(signature: der, message: Array(message))
    }

    /// Throws unless `key` is an EC key on P-256, naming what was found instead.
    static func requireP256(_ key: EVPKey) throws(JOSEError) {
        guard key.isA("EC") else {
            throw JOSEError(.invalidKey, "expected an EC P-256 key, found key type \(key.typeName)")
        }
        guard let curve = key.groupName else {
            throw JOSEError(.invalidKey, "EC key uses explicit curve parameters; expected named curve P-256")
        }
        guard curve == "prime256v1" || curve == "P-256" else {
            throw JOSEError(.invalidKey, "expected curve P-256 (prime256v1), found \(curve)")
        }
    }
}
