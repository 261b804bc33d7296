/// A request method token (RFC 9110 §9). Methods are case-sensitive; the parser keeps the token as sent.
///
/// String literals convert, so `request.method == "POST"` reads naturally, while routes and
/// comparisons use the named constants.
package struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    package var rawValue: String

    package init(rawValue: String) { self.rawValue = rawValue }
    package init(_ rawValue: String) { self.rawValue = rawValue }
    package init(stringLiteral value: String) { self.rawValue = value }

    package static let get: HTTPMethod = "GET"
    package static let head: HTTPMethod = "HEAD"
    package static let post: HTTPMethod = "POST"
    package static let put: HTTPMethod = "PUT"
    package static let patch: HTTPMethod = "PATCH"
    package static let delete: HTTPMethod = "DELETE"
    package static let options: HTTPMethod = "OPTIONS"

    package var description: String { rawValue }
}
