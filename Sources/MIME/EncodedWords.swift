/// RFC 2047 encoded words (`=?utf-8?q?Caf=C3=A9?=`, `=?UTF-8?B?Q2Fmw6k=?=`) decoded for display:
/// subjects and names as a person reads them. Raw messages are never changed; this is for the
/// mailbox's summaries only.
package enum EncodedWords {
    /// `text` with every well-formed encoded word decoded. Whitespace between two adjacent encoded
    /// words is dropped (RFC 2047 §6.2); a word in an unknown charset or encoding is kept as written.
    package static func decode(_ text: String) -> String {
        guard text.contains("=?") else { return text }
        var out = ""
        var pendingSpace = ""
        var lastWasEncoded = false
        var rest = Substring(text)
        while !rest.isEmpty {
            let tokenEnd = rest.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? rest.endIndex
            let token = rest[..<tokenEnd]
            let spaceEnd = rest[tokenEnd...].firstIndex(where: { $0 != " " && $0 != "\t" }) ?? rest.endIndex
            let space = String(rest[tokenEnd..<spaceEnd])
            rest = rest[spaceEnd...]
            if let decoded = decodeWord(token) {
                if !lastWasEncoded { out += pendingSpace }
                out += decoded
                lastWasEncoded = true
            } else {
                out += pendingSpace + token
                lastWasEncoded = false
            }
            pendingSpace = space
        }
        return out + pendingSpace
    }

    /// One `=?charset?encoding?text?=` token, or nil when it is not one this decoder reads.
    static func decodeWord(_ token: Substring) -> String? {
        guard token.hasPrefix("=?"), token.hasSuffix("?="), token.count >= 8 else { return nil }
        let parts = token.dropFirst(2).dropLast(2).split(separator: "?", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        // RFC 2231 §5: `charset*language`.
        let charset = parts[0].split(separator: "*").first.map { $0.lowercased() } ?? ""
        let payload = parts[2]
        let bytes: [UInt8]
        switch parts[1].lowercased() {
        case "b": bytes = TransferEncoding.decodeBase64(Array(payload.utf8)[...])
        case "q":
            let underscoresAsSpaces = payload.utf8.map { $0 == UInt8(ascii: "_") ? 32 : $0 }
            bytes = TransferEncoding.decodeQuotedPrintable(underscoresAsSpaces[...])
        default: return nil
        }
        if TransferEncoding.isLatin1(charset) { return TransferEncoding.latin1Text(bytes) }
        guard ["utf-8", "utf8", "us-ascii"].contains(charset) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
