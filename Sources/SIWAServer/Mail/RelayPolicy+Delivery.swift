import MIME
import Mailbox
import SIWACore
import SMTP
import ScenarioModel

/// The end of DATA. SMTP gives one reply per message, so the relay delivers every copy or none: when
/// one recipient's copy is refused (its team did not register the sender, forwarding was turned off
/// since RCPT, the address reached its 100 for the day), the whole message is refused with that
/// recipient's reply and no copy is delivered — a sender is never told "queued" for a copy that is
/// then dropped (docs/relay-mail.md).
extension RelayPolicy {
    func deliver(_ data: [UInt8], envelope: SMTPEnvelope) -> SMTPReply {
        let now = provider.clock.nowMilliseconds
        let message = MailMessage(parsing: data)
        let originators = Originators(message)
        var copies = RelayRules.checkCopies(envelope.recipients, in: provider.snapshot) { team in
            originators.check(envelopeSender: envelope.reversePath, team: team)
        }
        if copies.allSatisfy({ $0.decision.outcome == .accepted }) { reserveDailyCounts(&copies, at: now) }
        guard let refused = copies.first(where: { $0.decision.outcome != .accepted }) else {
            return deliverEveryCopy(
                copies, data: data, message: message, originators: originators, envelope: envelope, at: now)
        }
        let reply = SMTPReply(refused.decision.code, refused.decision.enhancedCode, refused.decision.text)
        let content = Content(headerFrom: originators.from, subject: message.field("Subject"), raw: data)
        for copy in copies {
            let reason =
                copy.decision.outcome == .accepted
                ? "would have been delivered, but \(refused.path) was refused (\(refused.decision.reason)); "
                    + "one reply answers the whole message, so no copy was delivered"
                : copy.decision.reason
            record(
                reply, refused.decision, step: "DATA", envelope: envelope, to: copy.path, user: copy.recipient?.user.id,
                at: now, reason: reason)
            store(
                refused.decision.outcome, reply: reply, reason: reason, to: copy.path, copy.recipient,
                envelope: envelope, content: content, at: now)
        }
        return reply
    }

    /// Counts every copy toward its address's 100 for the day; if one address is full, gives the
    /// others back and defers that copy (the message is then refused whole).
    func reserveDailyCounts(_ copies: inout [RelayRules.Copy], at now: Int64) {
        for index in copies.indices {
            guard let recipient = copies[index].recipient else { continue }
            if mailbox.reserveDelivery(recipient.relayAddress, at: now, limit: RelayRules.dailyLimit) { continue }
            copies[index].decision = RelayRules.dailyLimitReached(
                copies[index].path, recipient, count: mailbox.deliveredToday(recipient.relayAddress, at: now))
            for earlier in copies[..<index] {
                if let address = earlier.recipient?.relayAddress { mailbox.releaseDelivery(address, at: now) }
            }
            return
        }
    }

    /// Every copy passed: each is rewritten for its recipient and stored; the reply names them all.
    func deliverEveryCopy(
        _ copies: [RelayRules.Copy], data: [UInt8], message: MailMessage, originators: Originators,
        envelope: SMTPEnvelope,
        at now: Int64
    ) -> SMTPReply {
        let ids = mailbox.takeIDs(copies.count)
        let reply = SMTPReply(250, "2.0.0", "Ok: queued as " + Self.idList(ids))
        for (copy, id) in zip(copies, ids) {
            guard let recipient = copy.recipient, let from = originators.from else { continue }
            let relayFrom = RelayRules.developerRelayAddress(for: from, relayAddress: recipient.relayAddress)
            let raw = RelayRewriting.forwarded(
                message, original: data, from: from, relayFrom: relayFrom,
                received: receivedField(envelope, for: recipient.realAddress, at: now))
            let content = Content(
                headerFrom: from, subject: message.field("Subject"), raw: raw, deliveredTo: recipient.realAddress,
                rewrittenFrom: relayFrom)
            store(
                .accepted, reply: reply, reason: copy.decision.reason, to: copy.path, recipient, envelope: envelope,
                content: content, id: id, at: now)
            record(
                reply, copy.decision, step: "DATA", envelope: envelope, to: copy.path, user: recipient.user.id, at: now)
        }
        return reply
    }

    /// `m1,m2,m3`, or `m1..m100 (100 messages)` when the list would not fit a 512-octet reply line
    /// (RFC 5321 §4.5.3.1.5); the ids are consecutive (`Mailbox.takeIDs`).
    static func idList(_ ids: [String]) -> String {
        let list = ids.joined(separator: ",")
        let room = SMTPReply.maxTextBytes(enhancedCode: "2.0.0") - "Ok: queued as ".utf8.count
        guard list.utf8.count > room, let first = ids.first, let last = ids.last else { return list }
        return "\(first)..\(last) (\(ids.count) messages)"
    }
}

/// A message's originator fields (RFC 5322 §3.6.2): the From mailboxes and the Sender. Reply-To is
/// not an originator claim (it names where replies go), so it is kept as sent and not checked.
struct Originators {
    /// The first From address: the one SPF/DKIM are checked against and the rewrite replaces.
    var from: String?
    /// Every other originator address, each to be a registered source.
    var others: [(field: String, address: String)] = []
    /// Why the fields cannot be checked (several From fields, an unreadable Sender), if so.
    var problem: String?
    /// The `d=` domains of the message's DKIM signatures.
    var dkimDomains: [String]

    init(_ message: MailMessage) {
        dkimDomains = MailAddress.dkimDomains(message)
        let fromFields = message.fields(named: "From")
        if fromFields.count > 1 {
            problem = "the message has \(fromFields.count) From: fields; RFC 5322 §3.6 allows one"
        }
        if let field = fromFields.first, let addresses = MailAddress.addresses(inField: field) {
            from = addresses[0]
            others = addresses.dropFirst().map { ("From", $0) }
        }
        let senderFields = message.fields(named: "Sender")
        if senderFields.count > 1 {
            problem = problem ?? "the message has \(senderFields.count) Sender: fields; RFC 5322 §3.6 allows one"
        } else if let field = senderFields.first {
            if let addresses = MailAddress.addresses(inField: field), addresses.count == 1 {
                others.append(("Sender", addresses[0]))
            } else {
                problem = problem ?? "the Sender: field must name one mailbox (RFC 5322 §3.6.2)"
            }
        }
    }

    /// Apple's sender rules for `team`, every originator included.
    func check(envelopeSender: String, team: Team?) -> RelayDecision {
        if let problem { return RelayRules.unauthorizedSender(envelopeSender, reason: problem) }
        return RelayRules.checkSender(
            envelopeSender: envelopeSender, headerFrom: from, dkimDomains: dkimDomains, team: team,
            otherOriginators: others)
    }
}
