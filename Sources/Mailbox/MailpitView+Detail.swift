import JSON
import MIME

extension MailpitView {
    /// Mailpit's `Attachment` (without `Checksums`): `PartID` is the part's IMAP section number.
    static func attachment(_ part: MailMessage.Part) -> JSONValue {
        .object(
            JSONObject([
                ("PartID", .string(part.id)), ("FileName", .string(part.filename ?? "")),
                ("ContentType", .string(part.contentType)), ("ContentID", .string(part.contentID ?? "")),
                ("Size", .int(Int64(part.message.decodedBytes.count))),
            ]))
    }

    /// Mailpit's `Message`: the one Mailpit view that parses the message; its parts are served by
    /// `GET /api/v1/message/{ID}/part/{PartID}`. `Text` and `HTML` within `MailViewBudget` (Mailpit's
    /// shape has no field to say so; `/raw` has every byte).
    package var detail: JSONObject {
        let message = MailMessage(parsing: record.raw)
        // Text and HTML decoded up to what a view shows (`MailViewBudget`).
        let parts = message.textParts(decodingAtMost: MailViewBudget.decodedBytes)
        var budget = MailViewBudget()
        let text = budget.take(parts.text ?? "", as: "text")
        let html = budget.take(parts.html ?? "", as: "html")
        let returnPath = message.field("Return-Path").flatMap(MailAddress.firstAddress(inField:))
        let unsubscribe = JSONObject([
            ("Header", .string(budget.take(message.field("List-Unsubscribe") ?? "", as: "headers"))),
            ("Links", .array([])), ("Errors", .string("")),
            ("HeaderPost", .string(budget.take(message.field("List-Unsubscribe-Post") ?? "", as: "headers"))),
        ])
        return JSONObject([
            ("ID", .string(record.id)), ("MessageID", .string(index.messageID)), ("From", from),
            ("To", Self.list(index.to)), ("Cc", Self.list(index.cc)), ("Bcc", .array([])),
            ("ReplyTo", Self.list(index.replyTo)), ("ReturnPath", .string(returnPath ?? record.envelopeSender)),
            ("Subject", .string(index.subject)), ("ListUnsubscribe", .object(unsubscribe)), ("Date", created),
            ("Tags", .array([])), ("Username", .string("")), ("Text", .string(text)), ("HTML", .string(html)),
            ("Size", .int(Int64(record.raw.count))),
            ("Inline", .array(parts.others.filter(\.isInline).map(Self.attachment))),
            ("Attachments", .array(parts.attachments.map(Self.attachment))),
        ])
    }
}
