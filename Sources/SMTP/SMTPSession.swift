/// One SMTP server session as a state machine without I/O (RFC 5321 subset with PIPELINING,
/// RFC 2920; 8BITMIME, RFC 6152; SIZE, RFC 1870; STARTTLS, RFC 3207; ENHANCEDSTATUSCODES, RFC 2034).
///
/// Feed it the bytes the client sent, in any chunking; it answers with the bytes to send and what
/// to do next. One byte at a time gives the same replies as one big buffer.
package final class SMTPSession {
    package struct Configuration: Sendable {
        /// The name in the greeting and the EHLO reply.
        package var hostname = "localhost"
        /// Largest message accepted (advertised as SIZE).
        package var maxMessageBytes = 10 * 1024 * 1024
        /// Longest command line, line ending included (RFC 5321 §4.5.3.1.4: 512).
        package var maxCommandLineBytes = 512
        /// Recipients per message (RFC 5321 §4.5.3.1.8: at least 100).
        package var maxRecipients = 100
        /// Refused commands before the session is closed with 421.
        package var maxErrors = 20
        /// Whether STARTTLS is offered (the server has a certificate).
        package var offersTLS = false
        /// Shared by the sessions of one listener: bounds the bytes of every message in progress
        /// together (nil: each message is bounded only by `maxMessageBytes`).
        package var messageBudget: MessageBudget? = nil
        package init() {}
    }

    /// Where the session is. Transitions are listed on each case.
    enum State: Equatable {
        /// Greeting sent. → `.greeted` (EHLO/HELO), → closed (QUIT).
        case connected
        /// → `.mail` (MAIL accepted), → `.connected` (STARTTLS: the client must greet again).
        case greeted
        /// MAIL accepted, no recipient yet. → `.mail` (RCPT refused), → `.recipients` (RCPT accepted),
        /// → `.greeted` (RSET, or DATA with every RCPT refused).
        case mail
        /// At least one RCPT accepted. → `.data` (DATA), → `.greeted` (RSET).
        case recipients
        /// Reading the message after 354. → `.greeted` (end of data, whatever the reply).
        case data
        /// QUIT answered, or too many errors: input is ignored.
        case closed
    }

    package enum Action: Sendable, Equatable {
        case proceed
        /// Send the bytes, then close.
        case close
        /// Send the bytes in plaintext, then start TLS; the rest of this input was discarded.
        case startTLS
    }

    package struct Output: Sendable, Equatable {
        package var bytes: [UInt8] = []
        package var action: Action = .proceed
        package init(bytes: [UInt8] = [], action: Action = .proceed) {
            self.bytes = bytes
            self.action = action
        }
    }

    package let configuration: Configuration
    let policy: any SMTPPolicy
    var state: State = .connected
    var envelope: SMTPEnvelope
    /// Recipients attempted in this transaction (accepted or not), to tell 503 from 554 at DATA.
    var recipientsAttempted = 0
    var errors = 0
    /// The command line being collected.
    var line: [UInt8] = []
    /// The current line passed the limit: drop bytes until its end, then answer 500.
    var discardingLine = false
    var message = MessageReader(limit: 0)
    /// TLS is on (after STARTTLS); STARTTLS is no longer offered.
    package internal(set) var isSecure = false

    package init(configuration: Configuration, policy: any SMTPPolicy, remoteAddress: String) {
        self.configuration = configuration
        self.policy = policy
        self.envelope = SMTPEnvelope(remoteAddress: remoteAddress)
    }

    /// A connection that goes mid-message gives its bytes back to the shared budget.
    deinit { message.releaseReservation() }

    /// The 220 greeting (RFC 5321 §4.3.1).
    package func greeting() -> [UInt8] {
        SMTPReply(220, nil, "\(configuration.hostname) ESMTP siwa-mock").bytes
    }

    /// The 421 sent when the client was silent too long (RFC 5321 §4.5.3.2).
    package func timeoutReply() -> [UInt8] {
        state = .closed
        return SMTPReply(421, "4.4.2", "\(configuration.hostname) Error: timeout exceeded").bytes
    }

    /// Processes `bytes`; replies to every complete command, in order.
    package func receive(_ bytes: UnsafeRawBufferPointer) -> Output {
        var output = Output()
        var index = 0
        while index < bytes.count, output.action == .proceed {
            if state == .closed { break }
            if state == .data {
                let finished: Bool
                (index, finished) = message.consume(bytes, from: index)
                if finished { finishMessage(into: &output) }
                continue
            }
            let byte = bytes[index]
            index += 1
            guard byte == 10 else {
                if discardingLine { continue }
                if line.count >= configuration.maxCommandLineBytes - 2 {
                    discardingLine = true
                    line.removeAll(keepingCapacity: true)
                } else {
                    line.append(byte)
                }
                continue
            }
            if line.last == 13 { line.removeLast() }
            if discardingLine {
                discardingLine = false
                refuse(.lineTooLong, into: &output)
            } else {
                handleLine(into: &output)
            }
            line.removeAll(keepingCapacity: true)
        }
        return output
    }

    /// `receive` for bytes in an array (tests, fuzzing).
    package func receive(_ bytes: [UInt8]) -> Output {
        bytes.withUnsafeBytes { receive($0) }
    }

    /// A refused command (any non-2xx/3xx answer: bad syntax, wrong order, a refused sender,
    /// recipient or message): its reply, and 421 + close once `maxErrors` is reached.
    func refuse(_ reply: SMTPReply, into output: inout Output) {
        reply.serialize(into: &output.bytes)
        errors += 1
        if errors >= configuration.maxErrors {
            SMTPReply.tooManyErrors.serialize(into: &output.bytes)
            state = .closed
            output.action = .close
        }
    }
}
