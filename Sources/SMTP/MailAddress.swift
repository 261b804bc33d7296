/// Address helpers for header fields and envelope paths.
package enum MailAddress {
    /// The addr-spec of the first mailbox in a `From:`-style field: `"Name" <a@b>` → `a@b`,
    /// `a@b (comment)` → `a@b`. Nil when there is none.
    package static func firstAddress(inField value: String) -> String? {
        var text = Substring(value)
        if let open = text.lastIndex(of: "<") {
            let after = text[text.index(after: open)...]
            guard let close = after.firstIndex(of: ">") else { return nil }
            text = after[..<close]
        } else {
            if let comma = text.firstIndex(of: ",") { text = text[..<comma] }
            if let paren = text.firstIndex(of: "(") { text = text[..<paren] }
        }
        let address = text.trimmingSpaces
        guard SMTPCommandParser.isMailbox(Substring(address)) else { return nil }
        return address
    }

    /// The display name of a `From:` field (`"Shop" <a@b>` → `Shop`), or nil.
    package static func displayName(inField value: String) -> String? {
        guard let open = value.lastIndex(of: "<") else { return nil }
        var name = Substring(value[..<open]).trimmingSpaces
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
