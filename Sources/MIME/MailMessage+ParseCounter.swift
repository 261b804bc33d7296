import Synchronization

/// How many messages code running under a counter parsed (`MailMessage(parsing:)`; the parts of one
/// message are not counted again): the tests' proof that a mailbox list, search or wait reads only what
/// was indexed when the message was stored, and parses no stored message (docs/architecture.md, `Mailbox`).
/// A task-local value, so tests running in parallel count only their own parses.
package final class ParseCounter: Sendable {
    private let parsed = Atomic<Int>(0)

    package init() {}

    /// Messages parsed so far under this counter.
    package var count: Int { parsed.load(ordering: .relaxed) }

    func add() { parsed.add(1, ordering: .relaxed) }
}

extension MailMessage {
    /// The counter `init(parsing:)` adds to, when the running task (or thread) set one with
    /// `MailMessage.$parseCounter.withValue(_:operation:)`; nil otherwise (one task-local read per parse).
    @TaskLocal package static var parseCounter: ParseCounter?
}
