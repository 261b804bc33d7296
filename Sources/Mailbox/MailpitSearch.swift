/// A Mailpit search (`GET /api/v1/search?query=`, Mailpit's docs/usage/search-filters): words and
/// `"quoted phrases"` that must all appear (case-insensitive) in the message's addresses, subject or
/// text; `from:`, `to:`, `cc:`, `reply-to:`, `addressed:`, `subject:`, `message-id:` narrow a term to
/// those fields (`message-id:` as Mailpit's, a substring with `<>` dropped, so `make_msgid()`'s
/// `<w1@shop.example>` finds the message); `larger:SIZE`/`smaller:SIZE` by the message's size in
/// Mailpit's units (`500`, `2kb`, `1.5M`: K and M are 1024 and 1024²); `is:read`, `is:unread`,
/// `has:attachment(s)`; a leading `!` or `-` negates a term. Plain words also match attachment file
/// names, as Mailpit's search text includes them. Filters the subset does not cover (`tag:`, `is:tagged`,
/// `before:`, `after:`, `bcc:`, `has:inline`) and a size Mailpit's grammar does not read are refused by
/// name, not ignored (Mailpit's internal/storage/search.go, `searchQueryBuilder` and `sizeToBytes`).
package struct MailpitSearch: Sendable {
    enum Field: String, Sendable {
        case any, from, to, cc, addressed, subject
        case replyTo = "reply-to"
        case messageID = "message-id"
        case larger, smaller
        case isRead = "is:read"
        case isUnread = "is:unread"
        case hasAttachment = "has:attachment"
    }

    struct Term: Sendable {
        var field: Field
        /// Lowercased.
        var value: String
        var negated: Bool
        /// `larger:`/`smaller:` in bytes.
        var bytes: Int = 0
    }

    static let maximumTerms = 32
    let terms: [Term]

    /// Why a query is refused: the message of a 400.
    package struct Failure: Error {
        package var message: String
    }

    package init(parsing query: String) throws(Failure) {
        var terms: [Term] = []
        for token in try Self.tokens(query) {
            var text = Substring(token)
            var negated = false
            if let first = text.first, first == "!" || first == "-", text.count > 1 {
                negated = true
                text.removeFirst()
            }
            var lower = text.lowercased()
            if lower == "has:attachments" { lower = "has:attachment" }
            if let field = Field(rawValue: lower), [.isRead, .isUnread, .hasAttachment].contains(field) {
                terms.append(Term(field: field, value: "", negated: negated))
                continue
            }
            var field = Field.any
            var value = lower
            if let colon = lower.firstIndex(of: ":"), !lower.hasPrefix("\"") {
                let name = String(lower[..<colon])
                if let known = Field(rawValue: name), known != .any {
                    field = known
                    value = String(lower[lower.index(after: colon)...])
                } else if ["tag", "is", "has", "before", "after", "bcc"].contains(name) {
                    let filter = "\(name):\(lower[lower.index(after: colon)...])"
                    throw Failure("'\(filter)' is not in siwa-mock's Mailpit subset")
                }
            }
            if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            guard !value.isEmpty else { throw Failure("'\(token)' has nothing to search for") }
            var bytes = 0
            if field == .larger || field == .smaller {
                guard let size = Self.bytes(value) else {
                    throw Failure("'\(field.rawValue):\(value)' needs a size: bytes, K or M (e.g. 500, 2kb, 1.5M)")
                }
                bytes = size
            }
            if field == .messageID { value = value.filter { $0 != "<" && $0 != ">" } }
            terms.append(Term(field: field, value: value, negated: negated, bytes: bytes))
            guard terms.count <= Self.maximumTerms else { throw Failure("at most \(Self.maximumTerms) terms") }
        }
        guard !terms.isEmpty else { throw Failure("Error: no search query") }
        self.terms = terms
    }

    /// Splits at spaces outside double quotes (`subject:"two words"` is one token).
    static func tokens(_ query: String) throws(Failure) -> [String] {
        var tokens: [String] = []
        var current = ""
        var quoted = false
        for character in query {
            if character == "\"" { quoted.toggle() }
            if character.isWhitespace && !quoted {
                if !current.isEmpty { tokens.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        guard !quoted else { throw Failure("unterminated quote in '\(query)'") }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    /// Whether `record` passes every term, read from its `MailIndex` (no parse).
    package func matches(_ record: MailRecord) -> Bool {
        terms.allSatisfy { term in found(term, in: record) != term.negated }
    }

    func found(_ term: Term, in record: MailRecord) -> Bool {
        let index = record.index
        let text = index.lowercased
        func holds(_ field: String) -> Bool { MailIndex.contains(field, term.value) }
        switch term.field {
        case .isRead: return false  // read status is not tracked: every message is unread
        case .isUnread: return true
        case .hasAttachment: return index.attachments > 0
        case .from: return holds(text.from)
        case .to: return holds(text.to)
        case .cc: return holds(text.cc)
        case .replyTo: return holds(text.replyTo)
        case .addressed: return holds(text.addressed)
        case .subject: return holds(text.subject)
        case .messageID: return holds(index.messageID.lowercased())
        case .larger: return record.raw.count > term.bytes
        case .smaller: return record.raw.count < term.bytes
        case .any: return holds(text.addressed) || holds(text.subject) || holds(index.searchText)
        }
    }

    /// Mailpit's `sizeToBytes`: digits, an optional fraction, an optional space and `k`/`kb` (×1024) or
    /// `m`/`mb` (×1024²); nil for anything else or for 0 (which Mailpit does not filter by).
    static func bytes(_ text: String) -> Int? {
        var number = Substring(text)
        var unit = 1.0
        for (suffix, factor) in [("kb", 1024.0), ("mb", 1_048_576.0), ("k", 1024.0), ("m", 1_048_576.0)]
        where number.hasSuffix(suffix) {
            number = number.dropLast(suffix.count)
            unit = factor
            break
        }
        if number.last == " " { number = number.dropLast() }
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            parts.allSatisfy({ $0.allSatisfy(\.isNumber) }), number.count <= 15, let value = Double(number)
        else { return nil }
        let bytes = (value * unit).rounded(.down)
        return bytes >= 1 ? Int(bytes) : nil
    }
}

extension MailpitSearch.Failure {
    init(_ message: String) { self.message = message }
}
