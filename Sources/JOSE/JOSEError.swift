/// A JOSE-level failure: a malformed token or key, or an OpenSSL call that failed.
public typealias JOSEError = KindedError<JOSEErrorKind>

/// What kind of ``JOSEError`` happened.
public enum JOSEErrorKind: Sendable, Equatable {
    case malformedToken
    case invalidKey
    case unsupportedAlgorithm
    case cryptoFailure
}

extension JOSEErrorKind: OpenSSLFailureKind {
    package static var unusableInput: Self { .invalidKey }
    package static var internalFailure: Self { .cryptoFailure }
}
