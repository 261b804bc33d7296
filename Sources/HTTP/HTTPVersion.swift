/// The protocol version of a request line (RFC 9112 §2.3); this server speaks 1.0 and 1.1.
package struct HTTPVersion: Sendable, Equatable, Hashable, CustomStringConvertible {
    package var major: Int
    package var minor: Int

    package init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    package static let http10 = HTTPVersion(major: 1, minor: 0)
    package static let http11 = HTTPVersion(major: 1, minor: 1)

    package var description: String { "HTTP/\(major).\(minor)" }
}
