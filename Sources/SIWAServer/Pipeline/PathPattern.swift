import HTTP

/// A route's path: literal segments and `{name}` captures, e.g. `/mock/users/{user}`. A capture may
/// end in a literal suffix (`/mock/mail/{id}.eml`); declare such a route before the plain `{id}` one.
///
/// A capture matches one non-empty segment and is percent-decoded (`alice%40example.com` →
/// `alice@example.com`; a malformed escape stays as sent). Literal paths are looked up by exact string
/// before any pattern is tried, so `/mock/faults/reset` wins over `/mock/faults/{id}`.
package struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case literal(String)
        /// `{name}suffix`: the segment must end in `suffix` (maybe ""), which is not captured.
        case capture(String, suffix: String)
    }

    let segments: [Segment]
    /// The pattern as written.
    package let description: String

    package init(_ text: String) {
        description = text
        segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { part in
            guard part.hasPrefix("{"), let close = part.firstIndex(of: "}"), part.index(after: part.startIndex) < close
            else { return .literal(String(part)) }
            return .capture(
                String(part[part.index(after: part.startIndex)..<close]),
                suffix: String(part[part.index(after: close)...]))
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
            case .capture(let name, let suffix):
                guard part.count > suffix.count, part.hasSuffix(suffix) else { return nil }
                captures[name] = Self.percentDecoded(part.dropLast(suffix.count))
            }
        }
        return captures
    }

    static func percentDecoded(_ segment: Substring) -> String {
        guard segment.contains("%") || segment.contains("+") else { return String(segment) }
        return (try? URLEncodedForm.decodeComponent(Array(segment.utf8)[...], offset: 0)) ?? String(segment)
    }
}
