import KindedErrors

/// Why a server's `start()` failed, with a message fit for a terminal.
package typealias ListenError = KindedError<ListenErrorKind>

package enum ListenErrorKind: Sendable, Equatable {
    /// The host is not an IP address or resolvable name, or the port is out of range.
    case invalidAddress
    /// Another socket already holds the address (`EADDRINUSE`).
    case addressInUse
    /// `bind` or `listen` failed for another reason (permissions, address not local…).
    case bindFailed
    /// A socket, epoll or thread resource could not be created.
    case systemResource
}
