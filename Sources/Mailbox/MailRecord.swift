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
    /// What lists, searches and waits read of the message, computed once when it is stored
    /// (`Mailbox.add`); `.empty` until then.
    package var index = MailIndex.empty

    package init(
        id: String, direction: Direction, outcome: RelayDecision.Outcome, reply: String, reason: String,
        timeMilliseconds: Int64, teamID: String?, userID: String?, relayAddress: String, deliveredTo: String?,
        envelopeSender: String, headerFrom: String?, rewrittenFrom: String?, subject: String?, raw: [UInt8]
    ) {
        self.id = id
        self.direction = direction
        self.outcome = outcome
        self.reply = reply
        self.reason = reason
        self.timeMilliseconds = timeMilliseconds
        self.teamID = teamID
        self.userID = userID
        self.relayAddress = relayAddress
        self.deliveredTo = deliveredTo
        self.envelopeSender = envelopeSender
        self.headerFrom = headerFrom
        self.rewrittenFrom = rewrittenFrom
        self.subject = subject
        self.raw = raw
    }

    /// Bytes this record holds, for the mailbox's byte cap.
    var approximateBytes: Int {
        raw.count + reply.utf8.count + reason.utf8.count + relayAddress.utf8.count + (subject?.utf8.count ?? 0)
            + index.approximateBytes + 256
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
        object["subject"] = subject.map { _ in .string(index.subject) } ?? .null
        object["size"] = .int(Int64(raw.count))
        object["from_name"] = index.fromName.map { .string($0) } ?? .null
        object["attachments"] = .int(Int64(index.attachments))
        object["parts_note"] = index.partsNote.map { .string($0) } ?? .null
        return object
    }

    /// The record with its message indexed (`MailIndex`): the one parse a stored message gets
    /// outside the routes that show it whole.
    func indexed() -> MailRecord {
        var record = self
        record.index = MailIndex(raw, subject: subject)
        return record
    }
}
