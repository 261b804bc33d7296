import Glibc

/// A failed socket syscall: which function and the `errno` it left.
package struct SocketError: Error, Sendable, Equatable, CustomStringConvertible {
    package var errno: Int32
    package var function: String

    package init(errno: Int32, function: String) {
        self.errno = errno
        self.function = function
    }

    package var description: String {
        "\(function): \(Self.message(for: errno)) (errno \(errno))"
    }

    package static func message(for code: Int32) -> String {
        guard let text = strerror(code) else { return "error" }
        var bytes: [UInt8] = []
        var p = text
        while p.pointee != 0 {
            bytes.append(UInt8(bitPattern: p.pointee))
            p += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The peer reset the connection (RST), as seen by reads and writes.
    package var isConnectionReset: Bool { errno == ECONNRESET }
}
