/// What a received message came with: the envelope and the connection facts.
package struct SMTPEnvelope: Sendable, Equatable {
    /// The client's EHLO/HELO name.
    package var heloName: String
    package var remoteAddress: String
    /// Whether STARTTLS was completed before this transaction.
    package var secure: Bool
    /// `MAIL FROM`; "" for the null sender.
    package var reversePath: String
    /// Accepted `RCPT TO` paths, in order.
    package var recipients: [String]
    /// `BODY=8BITMIME` was given.
    package var eightBit: Bool

    package init(
        heloName: String = "", remoteAddress: String = "", secure: Bool = false, reversePath: String = "",
        recipients: [String] = [], eightBit: Bool = false
    ) {
        self.heloName = heloName
        self.remoteAddress = remoteAddress
        self.secure = secure
        self.reversePath = reversePath
        self.recipients = recipients
        self.eightBit = eightBit
    }
}

/// The decisions an SMTP session delegates: who may send, who may receive, and what happens to a
/// complete message. Called synchronously on the connection's thread; must not block.
package protocol SMTPPolicy: Sendable {
    /// `MAIL FROM` passed syntax and SIZE checks; nil accepts (250), a reply refuses.
    func checkSender(_ envelope: SMTPEnvelope) -> SMTPReply?
    /// One `RCPT TO` (the recipients accepted so far are in `envelope`); nil accepts (250).
    func checkRecipient(_ path: String, envelope: SMTPEnvelope) -> SMTPReply?
    /// The complete message (dot-unstuffed, CRLF line endings, without the final `.`): the reply to
    /// the end of DATA.
    func deliver(_ data: [UInt8], envelope: SMTPEnvelope) -> SMTPReply
    /// A message refused before the policy saw it (552 too large, 452 the listener's budget for
    /// messages in progress ran out): for the record of attempts.
    func refusedUnread(envelope: SMTPEnvelope, reply: SMTPReply)
}

extension SMTPPolicy {
    package func refusedUnread(envelope: SMTPEnvelope, reply: SMTPReply) {}
}
