import JSON
import MIME
import SIWACore

/// One delivered record as Mailpit's API shows a message (docs/relay-mail.md, "Mailpit-compatible API"):
/// `MessageSummary` in lists and searches, `Message` for `GET /api/v1/message/{ID}`. Field names are
/// Mailpit's (its `internal/storage/structs.go`); addresses are Go's `net/mail.Address`
/// (`{"Name","Address"}`), names and subjects decoded (RFC 2047).
struct MailpitView {
    let record: MailRecord
    let message: MailMessage
    let parts: MailMessage.TextParts

    init(_ record: MailRecord) {
        self.record = record
        message = MailMessage(parsing: record.raw)
        // Text and HTML decoded up to what a view shows (`MailViewBudget`); a search reads that much.
        parts = message.textParts(decodingAtMost: MailViewBudget.decodedBytes)
    }

    /// Every mailbox of the header fields `name`, in order.
    func addresses(_ name: String) -> [(name: String, address: String)] {
        message.fields(named: name).flatMap { value in
            MailAddress.mailboxes(inField: value).compactMap { mailbox -> (String, String)? in
                let text = String(mailbox)
                guard let address = MailAddress.firstAddress(inField: text) else { return nil }
                return (MailAddress.displayName(inField: text).map(EncodedWords.decode) ?? "", address)
            }
        }
    }

    static func json(_ address: (name: String, address: String)) -> JSONValue {
        .object(JSONObject([("Name", .string(address.name)), ("Address", .string(address.address))]))
    }

    func addressList(_ name: String) -> JSONValue { .array(addresses(name).map(Self.json)) }

    /// `Message-ID` without its angle brackets, as Mailpit stores it.
    var messageID: String {
        var id = Substring(message.field("Message-ID") ?? "")
        while let first = id.first, first == " " || first == "\t" { id.removeFirst() }
        while let last = id.last, last == " " || last == "\t" { id.removeLast() }
        if id.hasPrefix("<") && id.hasSuffix(">") && id.count >= 2 { id = id.dropFirst().dropLast() }
        return String(id)
    }

    var subject: String { record.subject.map(EncodedWords.decode) ?? "" }
    var text: String { parts.text ?? "" }
    var html: String { parts.html ?? "" }

    /// Up to 250 characters of the text (else the HTML's text), white space collapsed; read from the
    /// first 8 KiB, so listing many large messages stays cheap.
    var snippet: String {
        let source =
            parts.text.map { String($0.prefix(8192)) } ?? Self.strippingTags(String((parts.html ?? "").prefix(8192)))
        let words = source.split(whereSeparator: \.isWhitespace)
        return String(words.joined(separator: " ").prefix(250))
    }

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

    var created: JSONValue { .string(TimeText.rfc3339(milliseconds: record.timeMilliseconds)) }
    var from: JSONValue { addresses("From").first.map(Self.json) ?? .null }

    /// Mailpit's `MessageSummary`.
    var summary: JSONObject {
        JSONObject([
            ("ID", .string(record.id)), ("MessageID", .string(messageID)), ("Read", .bool(false)), ("From", from),
            ("To", addressList("To")), ("Cc", addressList("Cc")), ("Bcc", .array([])),
            ("ReplyTo", addressList("Reply-To")), ("Subject", .string(subject)), ("Created", created),
            ("Username", .string("")), ("Tags", .array([])), ("Size", .int(Int64(record.raw.count))),
            ("Attachments", .int(Int64(parts.attachments.count))), ("Snippet", .string(snippet)),
        ])
    }

    /// Mailpit's `Attachment` (without `Checksums`): `PartID` is the part's IMAP section number.
    static func attachment(_ part: MailMessage.Part) -> JSONValue {
        .object(
            JSONObject([
                ("PartID", .string(part.id)), ("FileName", .string(part.filename ?? "")),
                ("ContentType", .string(part.contentType)), ("ContentID", .string(part.contentID ?? "")),
                ("Size", .int(Int64(part.message.decodedBytes.count))),
            ]))
    }

    /// Mailpit's `Message`; its parts are served by `GET /api/v1/message/{ID}/part/{PartID}`. `Text` and
    /// `HTML` within `MailViewBudget` (Mailpit's shape has no field to say so; `/raw` has every byte).
    var detail: JSONObject {
        var budget = MailViewBudget()
        let text = budget.take(self.text, as: "text")
        let html = budget.take(self.html, as: "html")
        let returnPath = message.field("Return-Path").flatMap(MailAddress.firstAddress(inField:))
        let unsubscribe = JSONObject([
            ("Header", .string(budget.take(message.field("List-Unsubscribe") ?? "", as: "headers"))),
            ("Links", .array([])), ("Errors", .string("")),
            ("HeaderPost", .string(budget.take(message.field("List-Unsubscribe-Post") ?? "", as: "headers"))),
        ])
        return JSONObject([
            ("ID", .string(record.id)), ("MessageID", .string(messageID)), ("From", from),
            ("To", addressList("To")), ("Cc", addressList("Cc")), ("Bcc", .array([])),
            ("ReplyTo", addressList("Reply-To")), ("ReturnPath", .string(returnPath ?? record.envelopeSender)),
            ("Subject", .string(subject)), ("ListUnsubscribe", .object(unsubscribe)), ("Date", created),
            ("Tags", .array([])), ("Username", .string("")), ("Text", .string(text)), ("HTML", .string(html)),
            ("Size", .int(Int64(record.raw.count))),
            ("Inline", .array(parts.others.filter(\.isInline).map(Self.attachment))),
            ("Attachments", .array(parts.attachments.map(Self.attachment))),
        ])
    }
}
