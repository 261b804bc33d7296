/// Something about a connection worth logging that is not an exchange: a failed TLS handshake, plain
/// HTTP on the TLS port. The connection has already been closed.
package struct ConnectionDiagnostic: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// Plain HTTP arrived on a TLS listener (answered with the service's plaintext reply, a 400).
        case plainHTTPOnTLSPort
        /// The TLS handshake or a TLS record failed.
        case tlsFailure
    }

    package var kind: Kind
    package var remoteAddress: String
    package var message: String

    package init(kind: Kind, remoteAddress: String, message: String) {
        self.kind = kind
        self.remoteAddress = remoteAddress
        self.message = message
    }
}
