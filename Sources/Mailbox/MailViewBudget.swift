/// The bytes of message text one JSON view of a message copies — header values, the text and HTML
/// parts — so that a view stays bounded whatever the message holds: JSON escaping can make six bytes
/// of one (`\u0000`), and a 9.6 MB message once answered with 131 MB (docs/limits.md). Text past the
/// budget is cut at a character boundary and the view names what was cut; `.eml` keeps every byte.
package struct MailViewBudget {
    /// Bytes of message text in one view.
    package static let maximumBytes = 2 * 1024 * 1024
    /// Bytes of a text or HTML body decoded for a view (`MailMessage.textParts(decodingAtMost:)`): past
    /// the budget, so that a cut shows.
    package static let decodedBytes = maximumBytes + 4
    /// Bytes still to give.
    package private(set) var remaining = maximumBytes
    /// The view's fields that were cut, in order, each once.
    package private(set) var cut: [String] = []

    package init() {}

    /// `text`, or as much of it as the budget still holds (noting `field` as cut).
    package mutating func take(_ text: String, as field: String) -> String {
        let bytes = text.utf8
        guard bytes.count > remaining else {
            remaining -= bytes.count
            return text
        }
        if !cut.contains(field) { cut.append(field) }
        var end = bytes.index(bytes.startIndex, offsetBy: remaining)
        // Back to the start of a UTF-8 sequence: no character is split.
        while end > bytes.startIndex && bytes[end] & 0xC0 == 0x80 { end = bytes.index(before: end) }
        remaining = 0
        return String(text[..<end])
    }
}
