/// What the relay answers one step of a delivery, and why.
package struct RelayDecision: Sendable, Equatable {
    package enum Outcome: String, Sendable {
        case accepted, rejected, deferred
    }

    package var outcome: Outcome
    /// The SMTP reply code and enhanced status code (RFC 3463).
    package var code: Int
    package var enhancedCode: String
    package var text: String
    /// The rule that decided, in words (journal and mailbox; never sent to the client).
    package var reason: String

    package init(_ outcome: Outcome, _ code: Int, _ enhancedCode: String, _ text: String, reason: String) {
        self.outcome = outcome
        self.code = code
        self.enhancedCode = enhancedCode
        self.text = text
        self.reason = reason
    }

    /// The reply as a client prints it: `550 5.1.1 <a@b>: unauthorized sender`.
    package var replyText: String { "\(code) \(enhancedCode) \(text)" }
}
