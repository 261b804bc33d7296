import JSON
import MIME
import SIWACore

/// A delivered record as Mailpit's API shows a message (docs/relay-mail.md, "Mailpit-compatible API"):
/// `MessageSummary` in lists and searches, read from the record's `MailIndex` alone, and `Message` for
/// `GET /api/v1/message/{ID}`, which parses the message (`MailpitView+Detail.swift`). Field names are
/// Mailpit's (its `internal/storage/structs.go`); addresses are Go's `net/mail.Address`
/// (`{"Name","Address"}`), names and subjects decoded (RFC 2047).
package struct MailpitView {
    package let record: MailRecord

    package init(_ record: MailRecord) { self.record = record }

    var index: MailIndex { record.index }

    static func json(_ address: MailIndex.Address) -> JSONValue {
        .object(JSONObject([("Name", .string(address.name)), ("Address", .string(address.address))]))
    }

    static func list(_ addresses: [MailIndex.Address]) -> JSONValue { .array(addresses.map(Self.json)) }

    var created: JSONValue { .string(TimeText.rfc3339(milliseconds: record.timeMilliseconds)) }
    var from: JSONValue { index.from.first.map(Self.json) ?? .null }

    /// Mailpit's `MessageSummary`, from the index: no parse.
    package var summary: JSONObject {
        JSONObject([
            ("ID", .string(record.id)), ("MessageID", .string(index.messageID)), ("Read", .bool(false)),
            ("From", from), ("To", Self.list(index.to)), ("Cc", Self.list(index.cc)), ("Bcc", .array([])),
            ("ReplyTo", Self.list(index.replyTo)), ("Subject", .string(index.subject)), ("Created", created),
            ("Username", .string("")), ("Tags", .array([])), ("Size", .int(Int64(record.raw.count))),
            ("Attachments", .int(Int64(index.attachments))), ("Snippet", .string(index.snippet)),
        ])
    }
}
