import SIWACore
import SMTP

/// Apple's relay rules (`RelayRules`) applied to SMTP sessions: each RCPT and each finished message
/// is decided against the current scenario and mock clock, recorded in the mailbox and the journal.
struct RelayPolicy: SMTPPolicy {
    let provider: AppleIdentityProvider
    let mailbox: Mailbox
    let journal: RequestJournal
    /// The relay's own name in `Received:` fields.
    let hostname: String

    func checkSender(_ envelope: SMTPEnvelope) -> SMTPReply? { nil }

    func checkRecipient(_ path: String, envelope: SMTPEnvelope) -> SMTPReply? {
        let now = provider.clock.nowMilliseconds
        let (decision, recipient) = RelayRules.checkRecipient(path, in: provider.scenario) {
            mailbox.deliveredToday($0, at: now)
        }
        record(decision, step: "RCPT TO", envelope: envelope, to: path, user: recipient?.user.id, at: now)
        guard decision.outcome != .accepted else { return nil }
        mailbox.add { id in
            MailRecord(
                id: id, direction: .toUser, outcome: decision.outcome, reply: decision.replyText,
                reason: decision.reason, timeMilliseconds: now, teamID: recipient?.teamID, userID: recipient?.user.id,
                relayAddress: path, deliveredTo: nil, envelopeSender: envelope.reversePath, headerFrom: nil,
                rewrittenFrom: nil, subject: nil, raw: [])
        }
        return SMTPReply(decision.code, decision.enhancedCode, decision.text)
    }

    func deliver(_ data: [UInt8], envelope: SMTPEnvelope) -> SMTPReply {
        let now = provider.clock.nowMilliseconds
        let scenario = provider.scenario
        let message = MailMessage(parsing: data)
        let headerFrom = message.field("From").flatMap(MailAddress.firstAddress(inField:))
        let dkim = MailAddress.dkimDomains(message)
        let subject = message.field("Subject")
        var delivered: [String] = []
        var firstRefusal: RelayDecision? = nil
        for path in envelope.recipients {
            // The scenario may have changed since RCPT (forwarding turned off): decide again.
            guard let recipient = scenario.relayRecipient(forAddress: path) else { continue }
            var decision = RelayRules.checkSender(
                envelopeSender: envelope.reversePath, headerFrom: headerFrom, dkimDomains: dkim,
                team: scenario.team(id: recipient.teamID))
            if decision.outcome == .accepted && !recipient.user.emailForwardingEnabled {
                decision = RelayRules.checkRecipient(path, in: scenario) { _ in 0 }.0
            }
            if decision.outcome == .accepted
                && !mailbox.reserveDelivery(recipient.relayAddress, at: now, limit: RelayRules.dailyLimit)
            {
                decision = RelayRules.checkRecipient(path, in: scenario) { _ in RelayRules.dailyLimit }.0
            }
            var raw = data
            var rewritten: String? = nil
            if decision.outcome == .accepted, let headerFrom {
                let relayFrom = RelayRules.developerRelayAddress(for: headerFrom, relayAddress: recipient.relayAddress)
                rewritten = relayFrom
                raw = RelayRewriting.forwarded(
                    message, original: data, from: headerFrom, relayFrom: relayFrom,
                    received: receivedField(envelope, for: recipient.realAddress, at: now))
            }
            let stored = mailbox.add { id in
                var reply = decision.replyText
                if decision.outcome == .accepted { reply += " as \(id)" }
                return MailRecord(
                    id: id, direction: .toUser, outcome: decision.outcome, reply: reply, reason: decision.reason,
                    timeMilliseconds: now, teamID: recipient.teamID, userID: recipient.user.id,
                    relayAddress: recipient.relayAddress,
                    deliveredTo: decision.outcome == .accepted ? recipient.realAddress : nil,
                    envelopeSender: envelope.reversePath, headerFrom: headerFrom, rewrittenFrom: rewritten,
                    subject: subject, raw: raw)
            }
            record(decision, step: "DATA", envelope: envelope, to: path, user: recipient.user.id, at: now)
            if decision.outcome == .accepted {
                delivered.append(stored.id)
            } else if firstRefusal == nil {
                firstRefusal = decision
            }
        }
        if !delivered.isEmpty {
            return SMTPReply(250, "2.0.0", "Ok: queued as \(delivered.joined(separator: ","))")
        }
        guard let refusal = firstRefusal else {
            return SMTPReply(554, "5.5.1", "Error: no valid recipients")
        }
        return SMTPReply(refusal.code, refusal.enhancedCode, refusal.text)
    }

    func rejectedOversized(envelope: SMTPEnvelope, reply: SMTPReply) {
        let now = provider.clock.nowMilliseconds
        for path in envelope.recipients {
            let decision = RelayDecision(
                .rejected, reply.code, reply.enhancedCode ?? "", reply.lines[0],
                reason: "message larger than the SMTP listener's size limit")
            record(decision, step: "DATA", envelope: envelope, to: path, user: nil, at: now)
            mailbox.add { id in
                MailRecord(
                    id: id, direction: .toUser, outcome: .rejected, reply: reply.text, reason: decision.reason,
                    timeMilliseconds: now, teamID: nil, userID: nil, relayAddress: path, deliveredTo: nil,
                    envelopeSender: envelope.reversePath, headerFrom: nil, rewrittenFrom: nil, subject: nil, raw: [])
            }
        }
    }

    /// `Received: from HELO (ADDRESS) by HOST with ESMTP[S] for <REAL>; DATE` (RFC 5321 §4.4).
    func receivedField(_ envelope: SMTPEnvelope, for realAddress: String, at milliseconds: Int64) -> String {
        "Received: from \(envelope.heloName) (\(envelope.remoteAddress)) by \(hostname) with "
            + (envelope.secure ? "ESMTPS" : "ESMTP") + " for <\(realAddress)>; "
            + TimeText.rfc5322(milliseconds: milliseconds)
    }

    /// One journal line per decision: kind `mail`, the SMTP step as the path, the reply code as status.
    func record(
        _ decision: RelayDecision, step: String, envelope: SMTPEnvelope, to: String, user: String?, at now: Int64
    ) {
        journal.append(
            JournalEntry(
                kind: "mail", method: "SMTP", path: step,
                parameters: [("mail_from", envelope.reversePath), ("rcpt_to", to)], clientID: nil, user: user,
                outcome: decision.outcome.rawValue, status: decision.code, timeMilliseconds: now,
                reason: decision.reason + " (" + decision.replyText + ")"))
    }
}
