import KindedErrors

/// A JOSE-level failure: a malformed token or key, or an OpenSSL call that failed.
package typealias JOSEError = KindedError<JOSEErrorKind>

/// What kind of ``JOSEError`` happened.
package enum JOSEErrorKind: Sendable, Equatable {
    /// A compact JWS that is not three base64url parts holding JSON objects, or is too long.
    case malformedToken
    /// A PEM or JWK that is not a usable key of the expected type, curve or size (encrypted PEM included).
    case invalidKey
    /// An `alg` this module does not implement.
    case unsupportedAlgorithm
    /// OpenSSL failed for a reason unrelated to the input (allocation, key generation, signing).
    case cryptoFailure
}

extension JOSEErrorKind: OpenSSLFailureKind {
    package static var unusableInput: Self { .invalidKey }
    package static var internalFailure: Self { .cryptoFailure }
}
