/// What the relay answers one step of a delivery, and why.
public struct RelayDecision: Sendable, Equatable {
    public enum Outcome: String, Sendable {
        case accepted, rejected, deferred
    }

    public var outcome: Outcome
    /// The SMTP reply code and enhanced status code (RFC 3463).
    public var code: Int
    public var enhancedCode: String
    public var text: String
    /// The rule that decided, in words (journal and mailbox; never sent to the client).
    public var reason: String

    public init(_ outcome: Outcome, _ code: Int, _ enhancedCode: String, _ text: String, reason: String) {
        self.outcome = outcome
        self.code = code
        self.enhancedCode = enhancedCode
        self.text = text
        self.reason = reason
    }

    /// The reply as a client prints it: `550 5.1.1 <a@b>: unauthorized sender`.
    public var replyText: String { "\(code) \(enhancedCode) \(text)" }
}
