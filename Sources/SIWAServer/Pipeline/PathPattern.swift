import HTTPServer

/// A route's path: literal segments and `{name}` captures, e.g. `/mock/users/{user}`.
///
/// A capture matches one non-empty segment and is percent-decoded (`alice%40example.com` →
/// `alice@example.com`; a malformed escape stays as sent). Literal paths are looked up by exact string
/// before any pattern is tried, so `/mock/faults/reset` wins over `/mock/faults/{id}`.
package struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case capture(String)
    }

    let segments: [Segment]
    /// The pattern as written.
    package let description: String

    package init(_ text: String) {
        description = text
        segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { part in
            part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2
                ? .capture(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
    }

    /// Whether the pattern has no captures (then it is matched by exact string).
    package var isLiteral: Bool {
        segments.allSatisfy { if case .literal = $0 { true } else { false } }
    }

    /// The captured values by name, or nil when `path` does not match.
    func match(_ path: Substring) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard parts.count == segments.count else { return nil }
        var captures: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal):
                guard part == literal else { return nil }
            case .capture(let name):
                guard !part.isEmpty else { return nil }
                captures[name] = Self.percentDecoded(part)
            }
        }
        return captures
    }

    static func percentDecoded(_ segment: Substring) -> String {
        guard segment.contains("%") || segment.contains("+") else { return String(segment) }
        return (try? URLEncodedForm.decodeComponent(Array(segment.utf8)[...], offset: 0)) ?? String(segment)
    }
}
