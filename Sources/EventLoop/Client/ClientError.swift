import KindedErrors

/// Why an outgoing client connection (`ClientConnection`, the HTTP client, the Redis client's socket)
/// failed.
package typealias ClientError = KindedError<ClientErrorKind>

package enum ClientErrorKind: Sendable, Equatable {
    /// Not an `http://host[:port][/path]` URL, or the host does not resolve.
    case invalidURL
    /// `connect` failed (refused, unreachable), or the TLS handshake did.
    case connectFailed
    /// The address is not on the caller's `DestinationAllowList`; nothing was sent.
    case destinationNotAllowed
    /// No progress within the timeout.
    case timeout
    /// The server closed the connection before a complete response.
    case connectionClosed
    /// The server reset the connection (RST).
    case connectionReset
    /// The bytes are not a response of the protocol spoken (an HTTP/1.x response).
    case malformedResponse
    /// Any other socket failure.
    case socket
}

extension KindedError where Kind == ClientErrorKind {
    /// A failed socket call as a client error (a reset is its own kind).
    package static func from(_ error: SocketError) -> ClientError {
        ClientError(error.isConnectionReset ? .connectionReset : .socket, error.description)
    }
}
