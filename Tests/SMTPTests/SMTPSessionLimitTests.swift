import SMTP
import Testing

/// What a session refuses and how much it may hold: every refused command counts toward the error
/// limit, a repeated recipient is one recipient, reply lines stay within 512 octets, and messages in
/// progress share one memory bound.
@Suite struct SMTPSessionLimitTests {
    @Test func refusedRecipientsCountTowardTheErrorLimit() {
        let policy = RecordingPolicy(refused: Set((0..<40).map { "r\($0)@elsewhere.example" }))
        let recipients = (0..<40).map { "RCPT TO:<r\($0)@elsewhere.example>\r\n" }.joined()
        let result = converse("EHLO c\r\nMAIL FROM:<a@b.example>\r\n" + recipients, policy: policy)
        #expect(codes(result.text) == ["220", "250", "250"] + Array(repeating: "550", count: 20) + ["421"])
        #expect(result.action == .close)
    }

    @Test func aRefusedMessageCountsTowardTheErrorLimit() {
        let policy = RecordingPolicy(refusingMessages: true)
        let message = "MAIL FROM:<a@b.example>\r\nRCPT TO:<x@y.example>\r\nDATA\r\nhi\r\n.\r\n"
        let result = converse("EHLO c\r\n" + String(repeating: message, count: 3), policy: policy) { $0.maxErrors = 2 }
        #expect(codes(result.text) == ["220", "250", "250", "250", "354", "550", "250", "250", "354", "550", "421"])
    }

    @Test func aRepeatedRecipientIsAcceptedAndDeliveredOnce() {
        let policy = RecordingPolicy()
        let input =
            "EHLO c\r\nMAIL FROM:<a@b.example>\r\n" + String(repeating: "RCPT TO:<x@y.example>\r\n", count: 3)
            + "RCPT TO:<z@y.example>\r\nDATA\r\nhi\r\n.\r\n"
        let result = converse(input, policy: policy) { $0.maxRecipients = 2 }
        #expect(codes(result.text) == ["220", "250", "250", "250", "250", "250", "250", "354", "250"])
        #expect(policy.delivered.withLock { $0.map(\.envelope.recipients) } == [["x@y.example", "z@y.example"]])
    }

    @Test func helpNamesSTARTTLSOnlyWhenItIsOffered() {
        #expect(!converse("HELP\r\n").text.contains("STARTTLS"))
        #expect(converse("HELP\r\n") { $0.offersTLS = true }.text.contains(" STARTTLS\r\n"))
    }

    @Test func replyLinesAreCutTo512Octets() {
        let reply = SMTPReply(
            250, "2.0.0", ["Ok: " + String(repeating: "m1,", count: 400), "é" + String(repeating: "x", count: 600)])
        for line in String(decoding: reply.bytes, as: UTF8.self).split(separator: "\r\n") {
            #expect(line.utf8.count + 2 <= 512)
        }
        #expect(reply.bytes.count == 1024)
        #expect(reply.text.utf8.count + 2 == 512)
    }

    /// Half-sent messages over a shared 192 KiB budget: a DATA that finds no room is refused at
    /// once, a message that outgrows the room is refused at its end, and what a connection held is
    /// returned when it goes.
    @Test func messagesInProgressShareOneBudget() {
        let budget = MessageBudget(limit: 192 * 1024)
        var configuration = SMTPSession.Configuration()
        configuration.messageBudget = budget
        func session(_ policy: RecordingPolicy = RecordingPolicy()) -> SMTPSession {
            SMTPSession(configuration: configuration, policy: policy, remoteAddress: "")
        }
        func replies(_ output: SMTPSession.Output) -> [String] { codes(String(decoding: output.bytes, as: UTF8.self)) }
        let start = Array("EHLO c\r\nMAIL FROM:<a@b.example>\r\nRCPT TO:<x@y.example>\r\nDATA\r\n".utf8)
        let end = Array("\r\n.\r\n".utf8)
        let kilobytes = { (count: Int) in Array(repeating: UInt8(ascii: "a"), count: count * 1024) }
        var first: SMTPSession? = session()
        _ = first?.receive(start + kilobytes(100))
        #expect(budget.inUse == 128 * 1024)
        let policy = RecordingPolicy()
        let second = session(policy)
        #expect(replies(second.receive(start + kilobytes(10))) == ["250", "250", "250", "354"])
        #expect(budget.inUse == 192 * 1024)
        #expect(replies(session().receive(start)) == ["250", "250", "250", "452"])
        #expect(replies(second.receive(kilobytes(100) + end)) == ["452"])
        #expect(policy.messages.isEmpty && budget.inUse == 128 * 1024)
        first = nil
        #expect(budget.inUse == 0)
        let again = second.receive(Array(start.dropFirst(8)) + kilobytes(100) + end)
        #expect(replies(again) == ["250", "250", "354", "250"])
        #expect(policy.messages.count == 1 && budget.inUse == 0)
    }
}
