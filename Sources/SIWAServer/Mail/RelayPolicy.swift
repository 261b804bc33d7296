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
        mailbox.add { id in
            MailRecord(
                id: id, direction: .toUser, outcome: decision.outcome, reply: reply.text,
                reason: decision.reason, timeMilliseconds: now, teamID: recipient?.teamID, userID: recipient?.user.id,
                relayAddress: path, deliveredTo: nil, envelopeSender: envelope.reversePath, headerFrom: nil,
                rewrittenFrom: nil, subject: nil, raw: [])
        }
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
            mailbox.add { id in
                MailRecord(
                    id: id, direction: .toUser, outcome: decision.outcome, reply: reply.text, reason: decision.reason,
                    timeMilliseconds: now, teamID: nil, userID: nil, relayAddress: path, deliveredTo: nil,
                    envelopeSender: envelope.reversePath, headerFrom: nil, rewrittenFrom: nil, subject: nil, raw: [])
            }
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
