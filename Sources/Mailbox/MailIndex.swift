import MIME

/// What lists, searches and waits read of a stored message, computed once when it is stored
/// (`Mailbox.add`), as Mailpit stores a summary and a search text when a message arrives (its
/// internal/storage/messages.go). Nothing that reads the mailbox in bulk parses a message again: only
/// the routes that show one message whole (its detail, HTML and parts) parse it, within
/// `MailViewBudget`.
package struct MailIndex: Sendable {
    /// A mailbox of a header field: its display name as read (RFC 2047 decoded, "" without one) and
    /// its addr-spec.
    package struct Address: Sendable, Equatable {
        package var name: String
        package var address: String
    }

    /// An attachment or other non-body part (`MailMessage.TextParts.others`), without its bytes.
    package struct Part: Sendable, Equatable {
        /// The IMAP section number (`2`, `2.1`).
        package var id: String
        package var contentType: String
        package var filename: String?
        package var contentID: String?
        package var isInline: Bool
        /// Bytes of its body as sent (still encoded).
        package var encodedBytes: Int
    }

    /// Bytes of the text and of the HTML body each decoded into `searchText`: a word past them is
    /// not found by a plain search (docs/limits.md); the detail route and `.eml` still show it.
    package static let searchedBodyBytes = 256 * 1024

    /// The Subject as read (RFC 2047 decoded); "" without one.
    package var subject = ""
    /// `Message-ID` without its angle brackets, as Mailpit stores it.
    package var messageID = ""
    /// The `From:` display name as read, or nil (what `GET /mock/mail` lists as `from_name`).
    package var fromName: String?
    package var from: [Address] = []
    package var to: [Address] = []
    package var cc: [Address] = []
    package var replyTo: [Address] = []
    /// Up to 250 characters of the text (else the HTML's text), white space collapsed.
    package var snippet = ""
    /// The attachments and other non-body parts, in order.
    package var parts: [Part] = []
    /// Why the MIME walk stopped at a bound (`MailMessage.PartList.note`), or nil.
    package var partsNote: String?
    /// Lowercased, as search terms read them: `Name <address>, …` of each address field, all four
    /// together (From, To, Cc, Reply-To), and the subject.
    package var lowercased = Lowercased()
    /// Lowercased: the text, the HTML's text and the attachments' file names, each on its own line
    /// (within `searchedBodyBytes` of each body). A plain search term looks here and in the addresses
    /// and subject.
    package var searchText = ""

    package struct Lowercased: Sendable {
        package var from = ""
        package var to = ""
        package var cc = ""
        package var replyTo = ""
        package var addressed = ""
        package var subject = ""
    }

    /// The index of a record with no message (refused before DATA).
    package static let empty = MailIndex()

    private init() {}

    /// Reads `raw` once: its header fields, its part list, and its text and HTML bodies up to
    /// `searchedBodyBytes` each. `subject` is the Subject field as sent.
    package init(_ raw: [UInt8], subject: String?) {
        guard !raw.isEmpty else {
            self = .empty
            self.subject = subject.map(EncodedWords.decode) ?? ""
            lowercased.subject = self.subject.lowercased()
            return
        }
        let message = MailMessage(parsing: raw)
        let parts = message.textParts(decodingAtMost: Self.searchedBodyBytes)
        self.subject = subject.map(EncodedWords.decode) ?? ""
        messageID = Self.messageID(message.field("Message-ID") ?? "")
        fromName = message.field("From").flatMap(MailAddress.displayName(inField:)).map(EncodedWords.decode)
        from = Self.addresses(message, "From")
        to = Self.addresses(message, "To")
        cc = Self.addresses(message, "Cc")
        replyTo = Self.addresses(message, "Reply-To")
        let html = Self.strippingTags(parts.html ?? "")
        snippet = Self.snippet(parts.text.map { String($0.prefix(8192)) } ?? String(html.prefix(8192)))
        self.parts = parts.others.map { part in
            Part(
                id: part.id, contentType: part.contentType, filename: part.filename, contentID: part.contentID,
                isInline: part.isInline, encodedBytes: part.message.body.count)
        }
        partsNote = parts.note
        let names = self.parts.filter { !$0.isInline }.map { $0.filename ?? "" }
        searchText = ([parts.text ?? "", html] + names).joined(separator: "\n").lowercased()
        func line(_ addresses: [Address]) -> String {
            addresses.map { "\($0.name) <\($0.address)>" }.joined(separator: ", ").lowercased()
        }
        lowercased = Lowercased(
            from: line(from), to: line(to), cc: line(cc), replyTo: line(replyTo),
            addressed: line(from + to + cc + replyTo), subject: self.subject.lowercased())
    }

    /// Whether `text` holds `term` byte for byte (both lowercased): the search's one substring test, a
    /// byte search over UTF-8 (`find`) rather than a walk over Characters (a plain term over 1,000 stored messages
    /// went from 180 ms to a few; bench/RESULTS.md, issue #38).
    package static func contains(_ text: String, _ term: String) -> Bool {
        var text = text
        var term = term
        return text.withUTF8 { haystack in
            term.withUTF8 { needle in Self.find(needle, in: haystack) }
        }
    }

    /// Boyer–Moore–Horspool over bytes: a mismatch skips ahead by how far the window's last byte
    /// sits from the needle's end, so a term of 8 bytes reads about one byte in 8 of most text.
    static func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = needle.count
        guard count > 0 else { return true }
        guard haystack.count >= count else { return false }
        var skip = [Int](repeating: count, count: 256)
        for index in 0..<(count - 1) { skip[Int(needle[index])] = count - 1 - index }
        let last = needle[count - 1]
        var end = count - 1
        while end < haystack.count {
            let byte = haystack[end]
            if byte == last {
                var matched = 1
                while matched < count && haystack[end - matched] == needle[count - 1 - matched] { matched += 1 }
                if matched == count { return true }
            }
            end += skip[Int(byte)]
        }
        return false
    }

    /// How many parts a mail client lists as attachments (not the inline ones).
    package var attachments: Int { parts.count(where: { !$0.isInline }) }

    /// Bytes the index holds, for the mailbox's byte cap.
    var approximateBytes: Int {
        let addresses = (from + to + cc + replyTo).reduce(0) { $0 + $1.name.utf8.count + $1.address.utf8.count + 32 }
        let partBytes = parts.reduce(0) { $0 + $1.id.utf8.count + $1.contentType.utf8.count + 64 }
        return searchText.utf8.count + snippet.utf8.count + 2 * subject.utf8.count + messageID.utf8.count
            + 2 * addresses + partBytes
    }

    /// Every mailbox of the header fields `name`, in order.
    static func addresses(_ message: MailMessage, _ name: String) -> [Address] {
        message.fields(named: name).flatMap { value in
            MailAddress.mailboxes(inField: value).compactMap { mailbox -> Address? in
                let text = String(mailbox)
                guard let address = MailAddress.firstAddress(inField: text) else { return nil }
                return Address(
                    name: MailAddress.displayName(inField: text).map(EncodedWords.decode) ?? "", address: address)
            }
        }
    }

    /// `Message-ID` without its angle brackets and outer blanks.
    static func messageID(_ field: String) -> String {
        var id = Substring(field)
        while let first = id.first, first == " " || first == "\t" { id.removeFirst() }
        while let last = id.last, last == " " || last == "\t" { id.removeLast() }
        if id.hasPrefix("<") && id.hasSuffix(">") && id.count >= 2 { id = id.dropFirst().dropLast() }
        return String(id)
    }

    /// Up to 250 characters of `source`, white space collapsed.
    static func snippet(_ source: String) -> String {
        String(source.split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(250))
    }

    /// The text of an HTML body: every tag a space.
    static func strippingTags(_ html: String) -> String {
        var out = ""
        var inTag = false
        for character in html {
            switch character {
            case "<": inTag = true
            case ">" where inTag:
                inTag = false
                out.append(" ")
            default: if !inTag { out.append(character) }
            }
        }
        return out
    }
}
