import COpenSSL

/// An RSA public key (RS256 verification, JWK export).
package final class RSAPublicKey: Sendable {
    let key: EVPKey
    /// Big-endian modulus without leading zeros (256 bytes for RSA-2048).
    package let modulus: [UInt8]
    /// Big-endian public exponent without leading zeros (`[1, 0, 1]` for 65537).
    package let exponent: [UInt8]

    /// Wraps an RSA key after checking its type and size.
    init(key: EVPKey) throws(JOSEError) {
        try Self.requireRS256Capable(key)
        guard let modulus = key.bigNumber("n"), let exponent = key.bigNumber("e") else {
            throw OpenSSLErrors.failure(.cryptoFailure, "reading the RSA modulus and exponent failed")
        }
        self.key = key
        self.modulus = modulus
        self.exponent = exponent
    }

    /// From big-endian modulus and exponent bytes (JWK `n`, `e` decoded).
    package convenience init(modulus: [UInt8], exponent: [UInt8]) throws(JOSEError) {
        let modulus = Array(modulus.drop { $0 == 0 })
        let exponent = Array(exponent.drop { $0 == 0 })
        guard let lastByte = exponent.last, lastByte & 1 == 1, exponent != [1] else {
            throw JOSEError(.invalidKey, "RSA public exponent must be odd and greater than 1")
        }
        guard modulus.count <= 2048, modulus.last.map({ $0 & 1 == 1 }) == true else {
            throw JOSEError(.invalidKey, "RSA modulus must be odd and at most 16384 bits")
        }
        let builder = try KeyParameterBuilder()
        try builder.push("n", bigEndian: modulus)
        try builder.push("e", bigEndian: exponent)
        try self.init(key: builder.makeKey(algorithm: "RSA", selection: KeySelection.publicKey))
    }

    /// From a SubjectPublicKeyInfo PEM (`PUBLIC KEY`). Rejects non-RSA keys.
    package convenience init(pem: String) throws(JOSEError) {
        try self.init(key: EVPKey.readPublicKey(pem: pem, keyType: "RSA"))
    }

    /// From an RSA JWK; `alg`, `use` and `kid` are not checked here.
    package convenience init(jwk: JWK) throws(JOSEError) {
        guard jwk.kty == "RSA" else { throw JOSEError(.invalidKey, "JWK kty is \"\(jwk.kty)\", expected \"RSA\"") }
        guard let modulus = Base64URL.decode(jwk.n), let exponent = Base64URL.decode(jwk.e) else {
            throw JOSEError(.invalidKey, "JWK n or e is not valid base64url")
        }
        try self.init(modulus: modulus, exponent: exponent)
    }

    /// SubjectPublicKeyInfo PEM text.
    package func pem() -> String { key.publicKeyPEM() }

    /// Verifies an RSASSA-PKCS1-v1_5 SHA-256 signature. Any malformed input is simply `false`.
    package func verifyRS256(signature: [UInt8], message: some Collection<UInt8>) -> Bool {
        guard signature.count == modulus.count else { return false }
        return key.verifySHA256(signature: signature, message: Array(message))
    }

    /// `{"kty":"RSA","kid":…,"use":"sig","alg":"RS256","n":…,"e":…}` in that order, as Apple publishes.
    package func jwk(kid: String) -> JWK {
        JWK(kid: kid, n: Base64URL.encode(modulus), e: Base64URL.encode(exponent))
    }

    /// Throws unless `key` is an RSA key of at least 2048 bits (RFC 7518 §3.3).
    static func requireRS256Capable(_ key: EVPKey) throws(JOSEError) {
        guard key.isA("RSA") else {
            throw JOSEError(.invalidKey, "expected an RSA key, found key type \(key.typeName)")
        }
        guard key.bits >= 2048 else {
            throw JOSEError(.invalidKey, "RSA key has \(key.bits) bits; RS256 requires at least 2048")
        }
    }
}
