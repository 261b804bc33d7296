import MIME
import Mailbox
import SIWACore
import SMTP

/// Apple's relay rules (`RelayRules`) applied to SMTP sessions: each RCPT and each finished message
/// is decided against the current scenario and mock clock, recorded in the mailbox and the journal
/// with the reply the sender got.
struct RelayPolicy: SMTPPolicy {
    let provider: AppleIdentityProvider
    let mailbox: Mailbox
    let journal: RequestJournal
    /// The relay's own name in `Received:` fields.
    let hostname: String

    func checkSender(_ envelope: SMTPEnvelope) -> SMTPReply? { nil }

    func checkRecipient(_ path: String, envelope: SMTPEnvelope) -> SMTPReply? {
        let now = provider.clock.nowMilliseconds
        let (decision, recipient) = RelayRules.checkRecipient(path, in: provider.snapshot) {
            mailbox.deliveredToday($0, at: now)
        }
        guard decision.outcome != .accepted else {
            record(
                SMTPReply.ok, decision, step: "RCPT TO", envelope: envelope, to: path, user: recipient?.user.id, at: now
            )
            return nil
        }
        let reply = SMTPReply(decision.code, decision.enhancedCode, decision.text)
        record(reply, decision, step: "RCPT TO", envelope: envelope, to: path, user: recipient?.user.id, at: now)
        store(decision.outcome, reply: reply, reason: decision.reason, to: path, recipient, envelope: envelope, at: now)
        return reply
    }

    func refusedUnread(envelope: SMTPEnvelope, reply: SMTPReply) {
        let now = provider.clock.nowMilliseconds
        let decision = RelayDecision(
            reply.isTransient ? .deferred : .rejected, reply.code, reply.enhancedCode ?? "", reply.lines[0],
            reason: reply.code == 552
                ? "message larger than the SMTP listener's size limit"
                : "the SMTP listener's bound on messages in progress was reached (docs/limits.md)")
        for path in envelope.recipients {
            record(reply, decision, step: "DATA", envelope: envelope, to: path, user: nil, at: now)
            store(decision.outcome, reply: reply, reason: decision.reason, to: path, nil, envelope: envelope, at: now)
        }
    }

    /// `Received: from HELO (ADDRESS) by HOST with ESMTP[S] for <REAL>; DATE` (RFC 5321 §4.4); one line
    /// whatever its parts hold (`MailMessage.fieldText`): the real address is a user's, checked as an
    /// addr-spec when set, and a line break in it would add fields to every message delivered.
    func receivedField(_ envelope: SMTPEnvelope, for realAddress: String, at milliseconds: Int64) -> String {
        MailMessage.fieldText(
            "Received: from \(envelope.heloName) (\(envelope.remoteAddress)) by \(hostname) with "
                + (envelope.secure ? "ESMTPS" : "ESMTP") + " for <\(realAddress)>; "
                + TimeText.rfc5322(milliseconds: milliseconds))
    }

    /// What a record keeps of the message: nothing when it was refused before DATA.
    struct Content {
        var headerFrom: String? = nil
        var subject: String? = nil
        var raw: [UInt8] = []
        /// Where it was delivered, and the From the recipient sees: set only for a delivered copy.
        var deliveredTo: String? = nil
        var rewrittenFrom: String? = nil
    }

    /// The relay's one constructor of mailbox records: the copy for `path` (sent to `recipient`,
    /// when the address is a user's), its outcome, the reply the sender got and why; under `id`
    /// when the reply already named it (`Mailbox.takeIDs`), else a fresh one.
    @discardableResult
    func store(
        _ outcome: RelayDecision.Outcome, reply: SMTPReply, reason: String, to path: String,
        _ recipient: RelayRecipient?, envelope: SMTPEnvelope, content: Content = Content(), id: String? = nil,
        at now: Int64
    ) -> MailRecord {
        let make = { (id: String) in
            MailRecord(
                id: id, direction: .toUser, outcome: outcome, reply: reply.text, reason: reason, timeMilliseconds: now,
                teamID: recipient?.teamID, userID: recipient?.user.id, relayAddress: recipient?.relayAddress ?? path,
                deliveredTo: content.deliveredTo, envelopeSender: envelope.reversePath, headerFrom: content.headerFrom,
                rewrittenFrom: content.rewrittenFrom, subject: content.subject, raw: content.raw)
        }
        return id.map { mailbox.add(make($0)) } ?? mailbox.add(make)
    }

    /// One journal line per recipient and step: kind `mail`, the SMTP step as the path, the code of
    /// the reply on the wire as status, the decision's reason followed by that reply.
    func record(
        _ reply: SMTPReply, _ decision: RelayDecision, step: String, envelope: SMTPEnvelope, to: String,
        user: String?, at now: Int64, reason: String? = nil
    ) {
        journal.append(
            JournalEntry(
                kind: "mail", method: "SMTP", path: step,
                parameters: [("mail_from", envelope.reversePath), ("rcpt_to", to)], clientID: nil, user: user,
                outcome: reply.isPositive ? RelayDecision.Outcome.accepted.rawValue : decision.outcome.rawValue,
                status: reply.code, timeMilliseconds: now, reason: (reason ?? decision.reason) + " (" + reply.text + ")"
            ))
    }
}
