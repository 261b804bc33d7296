/// Text the mock writes into a header field of a message it makes or rewrites (the relay's
/// `Received:` and `From:`, a simulated reply's `To:`, `Subject:`, `In-Reply-To:`). A field ends at a
/// line break, so a CR, LF — or, for readers that end lines there, a bare CR, a NUL, a Unicode line
/// separator — inside a value would start a field the sender chose (`Bcc: victim@…`). RFC 5322 §2.2
/// allows printable characters and WSP in a field body; RFC 6532 §3.2 adds UTF-8 text, not controls.
extension MailMessage {
    /// A control character (C0 but HTAB, DEL, C1) or U+2028 / U+2029: never written into a field.
    package static func breaksLine(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
            || scalar.value == 0x2029
    }

    /// Whether `text` can be written into a field as it is.
    package static func isFieldText(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: breaksLine)
    }

    /// `text` with every character that `breaksLine` a space: for values the mock did not check
    /// itself on the way in (a field copied from a received message).
    package static func fieldText(_ text: String) -> String {
        guard !isFieldText(text) else { return text }
        var out = ""
        out.unicodeScalars.append(contentsOf: text.unicodeScalars.map { breaksLine($0) ? " " : $0 })
        return out
    }
}
