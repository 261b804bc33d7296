import JSON
import MIME
import SIWACore

/// One message the relay handled: delivered to a user's real address, a user's reply delivered to
/// the developer, or an attempt the relay refused (with the SMTP reply the sender got).
package struct MailRecord: Sendable {
    package enum Direction: String, Sendable {
        /// Developer → relay address → the user's real address.
        case toUser = "to-user"
        /// The user's reply → the developer's address (`POST /mock/mail/{id}/reply`).
        case toDeveloper = "to-developer"
    }

    /// `m1`, `m2`, … unique for the server's lifetime.
    package var id: String
    package var direction: Direction
    package var outcome: RelayDecision.Outcome
    /// The SMTP reply for this recipient (`250 2.0.0 Ok: queued as m1`, `550 5.1.1 …`).
    package var reply: String
    package var reason: String
    /// Mock-clock time, milliseconds since the epoch.
    package var timeMilliseconds: Int64
    package var teamID: String?
    package var userID: String?
    package var relayAddress: String
    /// Where the relay delivered (the user's real address, or the developer's for a reply); nil when
    /// refused.
    package var deliveredTo: String?
    /// The envelope sender (MAIL FROM); "" for the null sender.
    package var envelopeSender: String
    /// The header From address as sent.
    package var headerFrom: String?
    /// The From address after the relay rewrote it (what the recipient sees and replies to).
    package var rewrittenFrom: String?
    /// The Subject field as sent (encoded words and all).
    package var subject: String?
    /// The message as delivered (headers rewritten); for a refusal, as received (empty when refused
    /// before DATA).
    package var raw: [UInt8]
    /// The `From:` display name as read (RFC 2047 decoded), for lists; set when stored (`withPreview`).
    package var fromName: String? = nil
    /// How many attachments the message carries (`MailMessage.TextParts.attachments`); set when stored.
    package var attachments = 0
    /// Why the MIME walk stopped at a bound (`MailMessage.PartList.note`), or nil; set when stored.
    package var partsNote: String? = nil

    /// Bytes this record holds, for the mailbox's byte cap.
    var approximateBytes: Int {
        raw.count + reply.utf8.count + reason.utf8.count + relayAddress.utf8.count + (subject?.utf8.count ?? 0) + 256
    }

    /// `delivered`, `rejected` or `deferred`.
    package var statusName: String { outcome == .accepted ? "delivered" : outcome.rawValue }

    /// The record as `GET /mock/mail` lists it.
    package var summaryJSON: JSONObject {
        var object = JSONObject()
        object["id"] = .string(id)
        object["time"] = .string(TimeText.rfc3339(milliseconds: timeMilliseconds))
        object["direction"] = .string(direction.rawValue)
        object["status"] = .string(statusName)
        object["smtp_reply"] = .string(reply)
        object["reason"] = .string(reason)
        object["team"] = teamID.map { .string($0) } ?? .null
        object["user"] = userID.map { .string($0) } ?? .null
        object["relay_address"] = .string(relayAddress)
        object["delivered_to"] = deliveredTo.map { .string($0) } ?? .null
        object["envelope_from"] = .string(envelopeSender)
        object["from"] = headerFrom.map { .string($0) } ?? .null
        object["rewritten_from"] = rewrittenFrom.map { .string($0) } ?? .null
        // Shown as read (RFC 2047 encoded words decoded); the raw field stays in `headers` and `.eml`.
        object["subject"] = subject.map { .string(EncodedWords.decode($0)) } ?? .null
        object["size"] = .int(Int64(raw.count))
        object["from_name"] = fromName.map { .string($0) } ?? .null
        object["attachments"] = .int(Int64(attachments))
        object["parts_note"] = partsNote.map { .string($0) } ?? .null
        return object
    }

    /// The record with what lists show of its message read once, when it is stored, so that listing
    /// the mailbox every second does not parse every message again.
    func withPreview() -> MailRecord {
        var record = self
        let message = MailMessage(parsing: raw)
        record.fromName = message.field("From").flatMap(MailAddress.displayName(inField:)).map(EncodedWords.decode)
        // The part list, not `textParts`: nothing is decoded when a message is stored (a 9 MB text part
        // would be, on the SMTP listener's event loop).
        let list = message.partList
        record.attachments = MailMessage.TextParts.attachmentCount(of: list.parts)
        record.partsNote = list.note
        return record
    }
}
