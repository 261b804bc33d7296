import JSON

// STUB: the public API of the JOSE module. Bodies are filled in by the JOSE work; signatures are
// the contract other modules code against. Split into files by type when implementing.

/// Base64url without padding (RFC 7515 §2, RFC 4648 §5).
public enum Base64URL {
    public static func encode(_ bytes: some Collection<UInt8>) -> String { fatalError("unimplemented") }
    /// Returns nil for characters outside the url-safe alphabet, padding, or an impossible length.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? { fatalError("unimplemented") }
}

/// SHA-256 digests (for `at_hash`/`c_hash`, fingerprints and the secret cache).
public enum SHA256 {
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] { fatalError("unimplemented") }
}

/// A JOSE-level failure: a malformed token or key, or an OpenSSL call that failed.
public struct JOSEError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case malformedToken
        case invalidKey
        case unsupportedAlgorithm
        case cryptoFailure
    }
    public var kind: Kind
    public var message: String
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
    public var description: String { message }
}

/// An RSA private key (RS256 signing). Thread-safe: the underlying EVP_PKEY is only read.
public final class RSAPrivateKey: @unchecked Sendable {
    /// Generates a new key. Slow (70–470 ms for 2048 bits): never on a request path.
    public static func generate(bits: Int = 2048) throws(JOSEError) -> RSAPrivateKey { fatalError("unimplemented") }
    /// Loads a PEM private key (PKCS#8 `PRIVATE KEY` or PKCS#1 `RSA PRIVATE KEY`). Rejects non-RSA keys.
    public init(pem: String) throws(JOSEError) { fatalError("unimplemented") }
    /// PKCS#8 PEM text.
    public func pemPKCS8() -> String { fatalError("unimplemented") }
    public var publicKey: RSAPublicKey { fatalError("unimplemented") }
    /// RSASSA-PKCS1-v1_5 with SHA-256 over `message`.
    public func signRS256(_ message: some Collection<UInt8>) throws(JOSEError) -> [UInt8] { fatalError("unimplemented") }
}

/// An RSA public key (RS256 verification, JWK export).
public final class RSAPublicKey: @unchecked Sendable {
    /// From big-endian modulus and exponent bytes (JWK `n`, `e` decoded).
    public init(modulus: [UInt8], exponent: [UInt8]) throws(JOSEError) { fatalError("unimplemented") }
    /// Big-endian modulus without leading zeros (256 bytes for RSA-2048).
    public var modulus: [UInt8] { fatalError("unimplemented") }
    public var exponent: [UInt8] { fatalError("unimplemented") }
    public func verifyRS256(signature: [UInt8], message: some Collection<UInt8>) -> Bool { fatalError("unimplemented") }
    /// `{"kty":"RSA","kid":…,"use":"sig","alg":"RS256","n":…,"e":…}` in that order, as Apple publishes.
    public func jwk(kid: String) -> JWK { fatalError("unimplemented") }
}

/// A P-256 private key (ES256 client secrets, `keygen`).
public final class P256PrivateKey: @unchecked Sendable {
    public static func generate() throws(JOSEError) -> P256PrivateKey { fatalError("unimplemented") }
    /// Loads a `.p8` (PKCS#8 `PRIVATE KEY`) or SEC1 `EC PRIVATE KEY`. Rejects other curves and key types.
    public init(pem: String) throws(JOSEError) { fatalError("unimplemented") }
    public func pemPKCS8() -> String { fatalError("unimplemented") }
    public var publicKey: P256PublicKey { fatalError("unimplemented") }
    /// ES256 signature in JOSE form: 64 bytes, `r || s`, each left-padded to 32 bytes.
    public func signES256(_ message: some Collection<UInt8>) throws(JOSEError) -> [UInt8] { fatalError("unimplemented") }
}

/// A P-256 public key (ES256 client-secret verification).
public final class P256PublicKey: @unchecked Sendable {
    /// From a SubjectPublicKeyInfo PEM (`PUBLIC KEY`). Rejects RSA keys and other curves.
    public init(pem: String) throws(JOSEError) { fatalError("unimplemented") }
    /// From JWK affine coordinates (32 bytes each).
    public init(x: [UInt8], y: [UInt8]) throws(JOSEError) { fatalError("unimplemented") }
    public func pem() -> String { fatalError("unimplemented") }
    /// Verifies a JOSE `r || s` signature; anything not exactly 64 bytes (e.g. DER) is rejected.
    public func verifyES256(signature: [UInt8], message: some Collection<UInt8>) -> Bool { fatalError("unimplemented") }
}

/// One RSA JSON Web Key as Apple publishes it.
public struct JWK: Sendable, Equatable {
    public var kty: String
    public var kid: String
    public var use: String
    public var alg: String
    public var n: String
    public var e: String
    public init(kty: String = "RSA", kid: String, use: String = "sig", alg: String = "RS256", n: String, e: String) {
        self.kty = kty
        self.kid = kid
        self.use = use
        self.alg = alg
        self.n = n
        self.e = e
    }
    public var json: JSONValue { fatalError("unimplemented") }
}

/// A JWK Set: `{"keys":[…]}`.
public struct JWKS: Sendable, Equatable {
    public var keys: [JWK]
    public init(keys: [JWK]) { self.keys = keys }
    public func serialized() -> [UInt8] { fatalError("unimplemented") }
}

/// A JWS in compact serialization (RFC 7515 §7.1), decoded but not verified.
public struct JWS: Sendable {
    public let header: JSONObject
    public let payload: JSONObject
    /// `BASE64URL(header) "." BASE64URL(payload)` as ASCII bytes: what the signature covers.
    public let signingInput: [UInt8]
    public let signature: [UInt8]

    /// Decodes `a.b.c`; header and payload must be JSON objects. Bounded: tokens over 16 KiB are rejected.
    public init(compact: String) throws(JOSEError) { fatalError("unimplemented") }

    /// Signs with RS256; `header` should carry `alg` and `kid` (they are not added).
    public static func sign(header: JSONObject, payload: JSONObject, with key: RSAPrivateKey) throws(JOSEError) -> String {
        fatalError("unimplemented")
    }
    /// Signs with ES256 (raw `r || s`).
    public static func sign(header: JSONObject, payload: JSONObject, with key: P256PrivateKey) throws(JOSEError) -> String {
        fatalError("unimplemented")
    }
}
