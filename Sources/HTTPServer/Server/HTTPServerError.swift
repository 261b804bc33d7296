/// Why `HTTPServer.start()` failed, with a message fit for a terminal.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The host is not an IP address or resolvable name, or the port is out of range.
        case invalidAddress
        /// Another socket already holds the address (`EADDRINUSE`).
        case addressInUse
        /// `bind` or `listen` failed for another reason (permissions, address not local…).
        case bindFailed
        /// A socket, epoll or thread resource could not be created.
        case systemResource
    }

    public var kind: Kind
    public var message: String

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
