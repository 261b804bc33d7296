extension SMTPSession {
    /// Answers one complete command line (in `line`).
    func handleLine(into output: inout Output) {
        switch SMTPCommandParser.parse(line, maxMessageBytes: configuration.maxMessageBytes) {
        case .reject(let reply):
            refuse(reply, into: &output)
        case .command(let command):
            handle(command, into: &output)
        }
    }

    func handle(_ command: SMTPCommand, into output: inout Output) {
        switch command {
        case .ehlo(let name):
            resetTransaction()
            envelope.heloName = name
            state = .greeted
            ehloReply(name).serialize(into: &output.bytes)
        case .helo(let name):
            resetTransaction()
            envelope.heloName = name
            state = .greeted
            SMTPReply(250, nil, configuration.hostname).serialize(into: &output.bytes)
        case .mail(let path, _, let eightBit):
            switch state {
            case .connected: return refuse(.badSequenceHello, into: &output)
            case .mail, .recipients: return refuse(.nestedMail, into: &output)
            case .greeted, .data, .closed: break
            }
            envelope.reversePath = path
            envelope.eightBit = eightBit
            if let refusal = policy.checkSender(envelope) {
                resetTransaction()
                return refuse(refusal, into: &output)
            }
            state = .mail
            SMTPReply.ok.serialize(into: &output.bytes)
        case .rcpt(let path):
            guard state == .mail || state == .recipients else {
                return refuse(state == .connected ? .badSequenceHello : .badSequenceMail, into: &output)
            }
            // A repeated recipient is one recipient: accepted again, delivered once.
            if envelope.recipients.contains(path) { return SMTPReply.ok.serialize(into: &output.bytes) }
            guard envelope.recipients.count < configuration.maxRecipients else {
                return refuse(.tooManyRecipients, into: &output)
            }
            recipientsAttempted += 1
            if let refusal = policy.checkRecipient(path, envelope: envelope) {
                return refuse(refusal, into: &output)
            }
            envelope.recipients.append(path)
            state = .recipients
            SMTPReply.ok.serialize(into: &output.bytes)
        case .data:
            switch state {
            case .recipients:
                if let budget = configuration.messageBudget,
                    budget.limit - budget.inUse < MessageReader.firstReservation
                {
                    return refuse(.insufficientStorage, into: &output)
                }
                state = .data
                message = MessageReader(limit: configuration.maxMessageBytes, budget: configuration.messageBudget)
                SMTPReply.startData.serialize(into: &output.bytes)
            case .mail where recipientsAttempted > 0:
                resetTransaction()
                refuse(.noValidRecipients, into: &output)
            case .mail: refuse(.badSequenceRcpt, into: &output)
            case .connected: refuse(.badSequenceHello, into: &output)
            default: refuse(.badSequenceMail, into: &output)
            }
        case .rset:
            resetTransaction()
            SMTPReply.ok.serialize(into: &output.bytes)
        case .noop:
            SMTPReply.ok.serialize(into: &output.bytes)
        case .vrfy:
            SMTPReply.cannotVerify.serialize(into: &output.bytes)
        case .help:
            let startTLS = configuration.offersTLS && !isSecure ? " STARTTLS" : ""
            SMTPReply(214, "2.0.0", "Commands: EHLO HELO MAIL RCPT DATA RSET NOOP QUIT VRFY HELP" + startTLS)
                .serialize(into: &output.bytes)
        case .quit:
            state = .closed
            SMTPReply.bye.serialize(into: &output.bytes)
            output.action = .close
        case .startTLS:
            guard configuration.offersTLS, !isSecure else { return refuse(.notRecognized, into: &output) }
            guard state == .connected || state == .greeted else {
                return refuse(SMTPReply(503, "5.5.1", "Error: STARTTLS inside a mail transaction"), into: &output)
            }
            SMTPReply.readyForTLS.serialize(into: &output.bytes)
            // RFC 3207 §4.2: forget everything learned before TLS; the client greets again.
            resetTransaction()
            envelope.heloName = ""
            envelope.secure = true
            isSecure = true
            state = .connected
            output.action = .startTLS
        }
    }

    /// The multi-line EHLO answer naming the extensions (RFC 5321 §4.1.1.1).
    func ehloReply(_ name: String) -> SMTPReply {
        var lines = [
            "\(configuration.hostname) Hello \(name)", "SIZE \(configuration.maxMessageBytes)", "8BITMIME",
            "PIPELINING", "ENHANCEDSTATUSCODES",
        ]
        if configuration.offersTLS && !isSecure { lines.append("STARTTLS") }
        return SMTPReply(250, nil, lines)
    }

    /// The end-of-data line arrived: 552 when over the limit, 452 when the listener's budget for
    /// messages in progress ran out, else the policy's reply. A refusal counts as an error.
    func finishMessage(into output: inout Output) {
        var reader = message
        message = MessageReader(limit: 0)
        defer { reader.releaseReservation() }
        let finished = envelope
        resetTransaction()
        let reply: SMTPReply
        if reader.isOversized {
            reply = SMTPReply(552, "5.3.4", "Error: message size exceeds fixed limit")
            policy.refusedUnread(envelope: finished, reply: reply)
        } else if reader.isOverBudget {
            reply = .insufficientStorage
            policy.refusedUnread(envelope: finished, reply: reply)
        } else {
            reply = policy.deliver(reader.data, envelope: finished)
        }
        if reply.isPositive {
            reply.serialize(into: &output.bytes)
        } else {
            refuse(reply, into: &output)
        }
    }

    /// Back to `.greeted` (keeping the HELO name and TLS state), as RSET does (RFC 5321 §4.1.1.5).
    func resetTransaction() {
        if state != .connected && state != .closed { state = .greeted }
        envelope.reversePath = ""
        envelope.recipients = []
        envelope.eightBit = false
        recipientsAttempted = 0
    }
}
