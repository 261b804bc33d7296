/// Why a TLS operation failed, with OpenSSL's error queue as detail.
public struct TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A certificate or key PEM could not be parsed, or the key does not match the certificate.
        case invalidCredentials
        /// The peer sent plain HTTP to the TLS port.
        case plainHTTP
        /// The handshake or a record failed (bad client hello, no shared cipher, unknown CA alert…).
        case protocolFailure
        /// OpenSSL failed for a reason unrelated to the peer (allocation, key generation, signing).
        case internalFailure
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
