import HTTP
import JSON
import MIME
import Mailbox
import SIWACore

extension MailEndpoints {
    /// `POST /mock/mail/{id}/reply {"text", "subject"?}`: the user answers a delivered message. The
    /// relay sends it from the user's relay address to the developer's own address (the From the
    /// developer used), and it counts toward the relay address's 100 a day. 201 with the new record.
    func reply(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let original = try find(context.capture("id"))
        let body = try context.json()
        try body.allowOnly(["text", "subject"])
        let text = try body.string("text") ?? ""
        guard text.utf8.count <= 64 * 1024 else { throw .invalid("text", "at most 64 KiB") }
        guard original.direction == .toUser, original.outcome == .accepted, let developer = original.headerFrom else {
            throw ControlFailure(
                status: .conflict, error: "conflict", field: "id",
                "only a message delivered to a user can be answered ('\(original.id)' is "
                    + "\(original.statusName), \(original.direction.rawValue))")
        }
        // A line break (or NUL, bare CR, U+2028) in Subject would end the field and start one the caller
        // chose (`MailMessage+FieldText.swift`): refused when given, replaced when copied from the message.
        let subject = try body.string("subject") ?? "Re: " + MailMessage.fieldText(original.subject ?? "")
        guard MailMessage.isFieldText(subject) else {
            throw .invalid("subject", "must be one line of text: no CR, LF, NUL or other control character")
        }
        let now = provider.clock.nowMilliseconds
        guard mailbox.reserveDelivery(original.relayAddress, at: now, limit: RelayRules.dailyLimit) else {
            throw ControlFailure(
                status: .conflict, error: "conflict", field: "id",
                "\(original.relayAddress) reached its limit of \(RelayRules.dailyLimit) messages today")
        }
        let messageID = MailMessage(parsing: original.raw).field("Message-ID").map(MailMessage.fieldText)
        // Both addresses were checked on the way in (an SMTP mailbox, a user's addr-spec); `fieldText`
        // keeps that true of what is written here whatever a later change lets through.
        var raw =
            "From: <\(MailMessage.fieldText(original.relayAddress))>\r\nTo: <\(MailMessage.fieldText(developer))>\r\n"
            + "Subject: \(subject)\r\n"
            + "Date: \(TimeText.rfc5322(milliseconds: now))\r\n"
        if let messageID { raw += "In-Reply-To: \(messageID)\r\n" }
        raw += "Content-Type: text/plain; charset=utf-8\r\n\r\n\(text)\r\n"
        let reason =
            "reply of user '\(original.userID ?? "")' to \(original.rewrittenFrom ?? developer), "
            + "relayed to the developer's address \(developer) from \(original.relayAddress)"
        let record = mailbox.add { id in
            MailRecord(
                id: id, direction: .toDeveloper, outcome: .accepted, reply: "250 2.0.0 Ok: queued as \(id)",
                reason: reason, timeMilliseconds: now, teamID: original.teamID, userID: original.userID,
                relayAddress: original.relayAddress, deliveredTo: developer, envelopeSender: original.relayAddress,
                headerFrom: original.relayAddress, rewrittenFrom: nil, subject: subject, raw: Array(raw.utf8))
        }
        journal.append(
            JournalEntry(
                kind: "mail", method: "REPLY", path: "/mock/mail/\(original.id)/reply",
                parameters: [("mail_from", original.relayAddress), ("rcpt_to", developer)], clientID: nil,
                user: original.userID, outcome: "accepted", status: 250, timeMilliseconds: now, reason: reason))
        context.user = original.userID
        return ControlEndpoints.ok(record.summaryJSON, status: .created)
    }
}
