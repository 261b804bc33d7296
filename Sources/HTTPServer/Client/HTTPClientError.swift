/// Why an `HTTPClient` exchange failed.
public struct HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Not an `http://host[:port][/path]` URL, or the host does not resolve.
        case invalidURL
        /// `connect` failed (refused, unreachable).
        case connectFailed
        /// The address is not on the caller's `DestinationAllowList`; nothing was sent.
        case destinationNotAllowed
        /// No progress within the timeout.
        case timeout
        /// The server closed the connection before a complete response.
        case connectionClosed
        /// The server reset the connection (RST).
        case connectionReset
        /// The bytes are not an HTTP/1.x response.
        case malformedResponse
        /// Any other socket failure.
        case socket
    }

    public var kind: Kind
    public var message: String

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    static func from(_ error: SocketError) -> HTTPClientError {
        HTTPClientError(kind: error.isConnectionReset ? .connectionReset : .socket, message: error.description)
    }
}
