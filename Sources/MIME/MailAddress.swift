/// Address helpers for header fields and envelope paths.
package enum MailAddress {
    /// The mailboxes of a mailbox-list field (`From:`, `Sender:`, `Reply-To:`, RFC 5322 §3.4), split
    /// at commas outside quoted strings, comments and angle brackets; empty pieces dropped.
    package static func mailboxes(inField value: String) -> [Substring] {
        // In ASCII text (most fields) every byte is one Character (an unfolded value holds no CR LF),
        // so the bytes are walked; other text goes Character by Character, and a delimiter carrying
        // a combining mark is then no delimiter.
        mailboxes(inField: value, asBytes: value.utf8.allSatisfy { $0 < 0x80 })
    }

    static func mailboxes(inField value: String, asBytes ascii: Bool) -> [Substring] {
        var pieces: [Substring] = []
        var start = value.startIndex
        var quoted = false
        var escaped = false
        var commentDepth = 0
        var inAngle = false
        var index = value.startIndex
        while index < value.endIndex {
            let next = ascii ? value.utf8.index(after: index) : value.index(after: index)
            defer { index = next }
            let character = ascii ? value.utf8[index] : value[index].singleASCIIByte
            if escaped {
                escaped = false
                continue
            }
            switch character {
            case UInt8(ascii: "\\") where quoted || commentDepth > 0: escaped = true
            case UInt8(ascii: "\"") where commentDepth == 0: quoted.toggle()
            case UInt8(ascii: "(") where !quoted: commentDepth += 1
            case UInt8(ascii: ")") where !quoted && commentDepth > 0: commentDepth -= 1
            case UInt8(ascii: "<") where !quoted && commentDepth == 0: inAngle = true
            case UInt8(ascii: ">") where !quoted && commentDepth == 0: inAngle = false
            case UInt8(ascii: ",") where !quoted && commentDepth == 0 && !inAngle:
                pieces.append(value[start..<index])
                start = next
            default: break
            }
        }
        pieces.append(value[start...])
        return pieces.filter { piece in
            ascii ? !piece.utf8.allSatisfy { $0 == 32 || $0 == 9 } : !piece.allSatisfy { $0 == " " || $0 == "\t" }
        }
    }

    /// Every addr-spec of a mailbox-list field, in order; nil when a mailbox has none (a group, a
    /// bare name, a malformed address) or the field is empty.
    package static func addresses(inField value: String) -> [String]? {
        let pieces = mailboxes(inField: value)
        guard !pieces.isEmpty else { return nil }
        var found: [String] = []
        for piece in pieces {
            guard let address = address(inMailbox: piece) else { return nil }
            found.append(address)
        }
        return found
    }

    /// The addr-spec of the first mailbox in a `From:`-style field: `"Name" <a@b>` → `a@b`,
    /// `a@b (comment)` → `a@b`. Nil when there is none.
    package static func firstAddress(inField value: String) -> String? {
        mailboxes(inField: value).first.flatMap(address(inMailbox:))
    }

    /// One mailbox's addr-spec: inside `<…>`, else the text before a comment.
    static func address(inMailbox mailbox: Substring) -> String? {
        var text = mailbox
        if let open = text.lastIndex(of: "<") {
            let after = text[text.index(after: open)...]
            guard let close = after.firstIndex(of: ">") else { return nil }
            text = after[..<close]
        } else if let paren = text.firstIndex(of: "(") {
            text = text[..<paren]
        }
        let address = text.trimmingSpaces
        guard MailAddress.isMailbox(Substring(address)) else { return nil }
        return address
    }

    /// The display name of a field's first mailbox as written (`"Shop"`, `=?utf-8?q?Caf=C3=A9?=`,
    /// `Shop Team`), outer spaces trimmed; nil without one.
    package static func phrase(inField value: String) -> String? {
        guard let first = mailboxes(inField: value).first, let open = first.lastIndexOfASCII(UInt8(ascii: "<"))
        else { return nil }
        let phrase = first[..<open].trimmingSpaces
        return phrase.isEmpty ? nil : phrase
    }

    /// The display name of a `From:` field (`"Shop" <a@b>` → `Shop`), or nil.
    package static func displayName(inField value: String) -> String? {
        guard var name = phrase(inField: value) else { return nil }
        if name.hasPrefix("\"") && name.hasSuffix("\"") && name.count >= 2 {
            name = String(name.dropFirst().dropLast())
        }
        return name.isEmpty ? nil : name
    }

    /// The domain of an address, lowercased; nil without `@`.
    package static func domain(of address: String) -> String? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        let domain = address[address.index(after: at)...]
        return domain.isEmpty ? nil : domain.lowercased()
    }

    /// The `d=` domains of a message's `DKIM-Signature` fields (RFC 6376 §3.5), lowercased.
    package static func dkimDomains(_ message: MailMessage) -> [String] {
        message.fields(named: "DKIM-Signature").compactMap { value in
            for tag in value.split(separator: ";") {
                let parts = tag.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingSpaces.lowercased() == "d" else { continue }
                let domain = parts[1].filter { !$0.isWhitespace }.lowercased()
                return domain.isEmpty ? nil : domain
            }
            return nil
        }
    }
}

extension Character {
    /// The byte of a one-scalar ASCII character; 0 for any other (CR LF, non-ASCII, a base with marks).
    var singleASCIIByte: UInt8 {
        guard unicodeScalars.count == 1, let scalar = unicodeScalars.first, scalar.isASCII else { return 0 }
        return UInt8(scalar.value)
    }
}

extension Substring {
    /// `lastIndex(of:)` for an ASCII character: on the bytes when the text is ASCII (each byte is then
    /// one Character), else Character by Character.
    func lastIndexOfASCII(_ byte: UInt8) -> Index? {
        utf8.allSatisfy { $0 < 0x80 } ? utf8.lastIndex(of: byte) : lastIndex(of: Character(Unicode.Scalar(byte)))
    }
}
