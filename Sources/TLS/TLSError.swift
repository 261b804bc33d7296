import JOSE
import KindedErrors

/// Why a TLS operation failed, with OpenSSL's error queue as detail (the error shape JOSE uses too).
package typealias TLSError = KindedError<TLSErrorKind>

/// What kind of ``TLSError`` happened.
package enum TLSErrorKind: Sendable, Equatable {
    /// A certificate or key PEM could not be parsed, or the key does not match the certificate.
    case invalidCredentials
    /// The peer sent plain HTTP to the TLS port.
    case plainHTTP
    /// The handshake or a record failed (bad client hello, no shared cipher, unknown CA alert…).
    case protocolFailure
    /// OpenSSL failed for a reason unrelated to the peer (allocation, key generation, signing).
    case internalFailure
}

extension TLSErrorKind: OpenSSLFailureKind {
    package static var unusableInput: Self { .invalidCredentials }
}
