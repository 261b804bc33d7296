import JOSE
import ScenarioModel

/// Apple's private email relay rules, as pure functions (docs/relay-mail.md):
/// who may receive (RCPT), who may send (end of DATA) and how a forwarded message is addressed.
///
/// Reply texts are the ones captured from Apple's relay where a capture exists: `user not found`
/// for an unknown address (go-sisimai issue #155, `smtp1.privaterelay.appleid.com`) and
/// `unauthorized sender` naming the envelope sender
/// (https://developer.apple.com/forums/thread/798226); docs/fidelity.md lists which are not captured.
package enum RelayRules {
    /// Messages per relay address per day, the developer's mail and the user's replies together
    /// (https://developer.apple.com/documentation/signinwithapple/communicating-using-the-private-email-relay-service).
    package static let dailyLimit = 100

    /// The RCPT step: whether `address` can receive now, resolved through the snapshot's relay index.
    /// `deliveredToday` is how many messages the address already took on the mock clock's current UTC day.
    package static func checkRecipient(
        _ address: String, in snapshot: ProviderSnapshot, deliveredToday: (String) -> Int
    ) -> (RelayDecision, RelayRecipient?) {
        let (decision, recipient) = checkAddress(address, in: snapshot)
        guard decision.outcome == .accepted, let recipient else { return (decision, recipient) }
        let count = deliveredToday(recipient.relayAddress)
        return (count < dailyLimit ? decision : dailyLimitReached(address, recipient, count: count), recipient)
    }

    /// Whether `address` is a relay address whose user receives mail, the daily count aside.
    static func checkAddress(_ address: String, in snapshot: ProviderSnapshot) -> (RelayDecision, RelayRecipient?) {
        let lowered = address.lowercased()
        let found = snapshot.relayRecipient(forAddress: lowered)
        guard let domain = lowered.split(separator: "@").last.map(String.init),
            Scenario.relayDomains.contains(domain) || found != nil
        else {
            return (
                RelayDecision(
                    .rejected, 550, "5.7.1", "<\(address)>: Relay access denied",
                    reason: "\(address) is not in a relay domain (\(Scenario.relayDomains.joined(separator: ", ")))"),
                nil
            )
        }
        guard let recipient = found else {
            return (
                RelayDecision(
                    .rejected, 550, "5.1.1", "<\(address)>: user not found",
                    reason: "no scenario user has the relay address \(address)"),
                nil
            )
        }
        guard recipient.user.emailForwardingEnabled else {
            return (
                RelayDecision(
                    .rejected, 550, "5.1.1", "<\(address)>: user not found",
                    reason: "user '\(recipient.user.id)' turned off email forwarding for this address"),
                recipient
            )
        }
        return (
            RelayDecision(
                .accepted, 250, "2.1.5", "OK",
                reason: "relay address of user '\(recipient.user.id)' in team \(recipient.teamID)"),
            recipient
        )
    }

    /// The deferral when `recipient`'s address already took `count` (≥ `dailyLimit`) messages today.
    package static func dailyLimitReached(_ address: String, _ recipient: RelayRecipient, count: Int)
        -> RelayDecision
    {
        RelayDecision(
            .deferred, 450, "4.2.1",
            "<\(address)>: receiving mail at a rate that prevents additional messages from being delivered; "
                + "try again later",
            reason: "\(recipient.relayAddress) already received \(count) messages today (limit \(dailyLimit))")
    }

    /// One distinct recipient of a message at the end of DATA and the relay's decision for its copy.
    package struct Copy: Sendable {
        /// The recipient as the envelope named it (RCPT TO).
        package var path: String
        package var recipient: RelayRecipient?
        package var decision: RelayDecision
    }

    /// The end-of-DATA step, one decision per distinct recipient (two spellings of one relay address
    /// are one copy): the recipient rules again, since the scenario may have changed since RCPT
    /// (forwarding turned off), then `sender`'s rules for the recipient's team. The daily count is
    /// the caller's, reserved for every copy at once (`dailyLimitReached` for the one that is full).
    package static func checkCopies(
        _ paths: [String], in snapshot: ProviderSnapshot, sender: (Team?) -> RelayDecision
    ) -> [Copy] {
        var copies: [Copy] = []
        var seen = Set<String>()
        for path in paths {
            var (decision, recipient) = checkAddress(path, in: snapshot)
            guard seen.insert(recipient?.relayAddress.lowercased() ?? path.lowercased()).inserted else { continue }
            if decision.outcome == .accepted, let recipient {
                decision = sender(snapshot.scenario.team(id: recipient.teamID))
            }
            copies.append(Copy(path: path, recipient: recipient, decision: decision))
        }
        return copies
    }

    /// The end-of-DATA step: whether the message comes from one of `team`'s registered sources and
    /// passes SPF (envelope sender's domain registered, exact match) or DKIM (`d=` equals the header
    /// From domain, registered). `otherOriginators` are the message's other originator addresses
    /// (more mailboxes in From:, the Sender:, RFC 5322 §3.6.2): each must be a registered source too,
    /// or the user would see a sender the team never registered.
    package static func checkSender(
        envelopeSender: String, headerFrom: String?, dkimDomains: [String], team: Team?,
        otherOriginators: [(field: String, address: String)] = []
    ) -> RelayDecision {
        let sources = team?.emailSources ?? []
        let teamName = team?.id ?? "(none)"
        let refusal = { (why: String) in unauthorizedSender(envelopeSender, reason: why) }
        guard let from = headerFrom?.lowercased() else {
            return refusal("the message has no parsable From: header field")
        }
        guard let fromSource = sources.first(where: { $0.covers(from) }) else {
            return refusal("header From \(from) is not a registered email source of team \(teamName)")
        }
        for (field, address) in otherOriginators where !sources.contains(where: { $0.covers(address.lowercased()) }) {
            return refusal("\(field) \(address.lowercased()) is not a registered email source of team \(teamName)")
        }
        let sender = envelopeSender.lowercased()
        if let spf = sources.first(where: { $0.passesSPF && !sender.isEmpty && $0.covers(sender) }) {
            return RelayDecision(
                .accepted, 250, "2.0.0", "Ok: queued",
                reason: "SPF pass: envelope sender \(sender) matches \(spf.label); From \(from) is \(fromSource.label)")
        }
        let fromDomain = from.split(separator: "@").last.map(String.init) ?? ""
        if fromSource.passesDKIM && dkimDomains.contains(fromDomain) {
            return RelayDecision(
                .accepted, 250, "2.0.0", "Ok: queued",
                reason: "DKIM pass: d=\(fromDomain) matches header From \(from) (\(fromSource.label))")
        }
        let senderText = sender.isEmpty ? "the null sender" : "envelope sender \(sender)"
        let dkimText =
            dkimDomains.isEmpty
            ? "no DKIM-Signature"
            : "DKIM d=\(dkimDomains.joined(separator: ",")) "
                + (fromSource.passesDKIM ? "does not match \(fromDomain)" : "but \(fromSource.label) fails DKIM")
        return refusal("neither SPF (\(senderText) is not a registered source passing SPF) nor DKIM (\(dkimText))")
    }

    /// Apple's bounce for mail its rules do not let through, naming the envelope sender.
    package static func unauthorizedSender(_ envelopeSender: String, reason: String) -> RelayDecision {
        RelayDecision(.rejected, 550, "5.1.1", "<\(envelopeSender)>: unauthorized sender", reason: reason)
    }

    /// The address the relay shows as the sender so the user's reply goes back through the relay:
    /// `news@shop.example` → `news_at_shop_example_<10 characters>@privaterelay.appleid.com`, stable
    /// per (developer address, relay address).
    package static func developerRelayAddress(for developerAddress: String, relayAddress: String) -> String {
        let lowered = developerAddress.lowercased()
        let readable = lowered.map { $0 == "@" ? "_at_" : $0 == "." ? "_" : String($0) }.joined()
        let digest = SHA256.hash(Array("reply:\(lowered)|\(relayAddress.lowercased())".utf8))
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        let token = String(decoding: digest.prefix(10).map { alphabet[Int($0) % alphabet.count] }, as: UTF8.self)
        return "\(readable)_\(token)@\(Scenario.relayDomains[0])"
    }
}
