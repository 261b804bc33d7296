import SMTP
import Testing

@Suite struct SMTPSessionTests {
    static let transaction =
        "EHLO client.example\r\nMAIL FROM:<news@shop.example> SIZE=100 BODY=8BITMIME\r\n"
        + "RCPT TO:<a@privaterelay.appleid.com>\r\nDATA\r\nSubject: hi\r\n\r\n..dotted\r\n.\r\nQUIT\r\n"

    @Test func fullTransactionGivesTheSameRepliesWhetherDripFedOrWhole() {
        let policy = RecordingPolicy()
        let whole = converse(Self.transaction, policy: policy)
        let drip = converse(Self.transaction, chunk: 1)
        #expect(whole.text == drip.text)
        #expect(codes(whole.text) == ["220", "250", "250", "250", "354", "250", "221"])
        #expect(whole.action == .close)
        #expect(whole.text.contains("250-PIPELINING\r\n"))
        #expect(whole.text.contains("250-8BITMIME\r\n"))
        #expect(whole.text.contains("250-SIZE 10485760\r\n"))
        // Dot-stuffing undone; the terminating line is not part of the message.
        #expect(policy.messages == [Array("Subject: hi\r\n\r\n.dotted\r\n".utf8)])
    }

    @Test func everyChunkSizeGivesTheSameMessage() {
        for chunk in [1, 2, 3, 7, 13, 64] {
            let policy = RecordingPolicy()
            _ = converse(Self.transaction, chunk: chunk, policy: policy)
            #expect(policy.messages == [Array("Subject: hi\r\n\r\n.dotted\r\n".utf8)], "chunk \(chunk)")
        }
    }

    @Test func bareLineFeedsAroundTheDotDoNotEndTheMessage() {
        let policy = RecordingPolicy()
        let input =
            "EHLO c\r\nMAIL FROM:<a@b.example>\r\nRCPT TO:<x@y.example>\r\nDATA\r\n"
            + "one\n.\nMAIL FROM:<evil@x.example>\r\n.\r\n"
        let result = converse(input, chunk: 1, policy: policy)
        #expect(codes(result.text) == ["220", "250", "250", "250", "354", "250"])
        #expect(policy.messages == [Array("one\n.\nMAIL FROM:<evil@x.example>\r\n".utf8)])
    }

    @Test func outOfSequenceCommandsGet503AndTheSessionContinues() {
        let input = "MAIL FROM:<a@b.example>\r\nEHLO c\r\nRCPT TO:<x@y.example>\r\nDATA\r\nNOOP\r\n"
        #expect(codes(converse(input).text) == ["220", "503", "250", "503", "503", "250"])
    }

    @Test func dataAfterOnlyRefusedRecipientsIs554() {
        let policy = RecordingPolicy(refused: ["x@y.example"])
        let input = "EHLO c\r\nMAIL FROM:<a@b.example>\r\nRCPT TO:<x@y.example>\r\nDATA\r\nRSET\r\n"
        #expect(codes(converse(input, policy: policy).text) == ["220", "250", "250", "550", "554", "250"])
    }

    @Test func syntaxErrorsGetTheirCodes() {
        let cases: [(String, String)] = [
            ("FROB\r\n", "500"), ("EHLO\r\n", "501"), ("MAIL FROM:a@b.example\r\n", "501"),
            ("MAIL FROM:<a@b.example> SIZE=99999999999999999999999999999\r\n", "501"),
            ("MAIL FROM:<a@b.example> SIZE=20000000\r\n", "552"), ("MAIL FROM:<a@b.example> FOO=1\r\n", "555"),
            ("MAIL FROM:<a..b@c.example>\r\n", "501"), ("DATA now\r\n", "501"), ("MAIL FROM:<é@b.example>\r\n", "500"),
        ]
        for (command, code) in cases {
            let result = converse("EHLO c\r\n" + command)
            #expect(codes(result.text).last == code, "\(command)")
        }
    }

    @Test func theNullSenderIsAccepted() {
        #expect(codes(converse("EHLO c\r\nMAIL FROM:<>\r\n").text) == ["220", "250", "250"])
    }

    @Test func anOverlongCommandLineIs500AndTheNextLineIsRead() {
        let input = "EHLO c\r\nNOOP " + String(repeating: "x", count: 5000) + "\r\nNOOP\r\n"
        let result = converse(input, chunk: 1)
        #expect(codes(result.text) == ["220", "250", "500", "250"])
        #expect(result.text.contains("500 5.5.2 Error: line too long"))
    }

    @Test func anOversizedMessageIs552AndNotDelivered() {
        let policy = RecordingPolicy()
        let body = String(repeating: "0123456789\r\n", count: 20)
        let input = "EHLO c\r\nMAIL FROM:<a@b.example>\r\nRCPT TO:<x@y.example>\r\nDATA\r\n\(body).\r\nNOOP\r\n"
        let result = converse(input, policy: policy) { $0.maxMessageBytes = 100 }
        #expect(codes(result.text) == ["220", "250", "250", "250", "354", "552", "250"])
        #expect(policy.messages.isEmpty)
    }

    @Test func tooManyErrorsCloseWith421() {
        let input = String(repeating: "FROB\r\n", count: 30)
        let result = converse(input) { $0.maxErrors = 3 }
        #expect(codes(result.text) == ["220", "500", "500", "500", "421"])
        #expect(result.action == .close)
    }

    @Test func startTLSDiscardsPipelinedBytesAndNeedsANewGreeting() {
        var configuration = SMTPSession.Configuration()
        configuration.offersTLS = true
        let session = SMTPSession(configuration: configuration, policy: RecordingPolicy(), remoteAddress: "")
        let ehlo = session.receive(Array("EHLO c\r\n".utf8))
        #expect(String(decoding: ehlo.bytes, as: UTF8.self).contains("250-STARTTLS\r\n") == false)
        #expect(String(decoding: ehlo.bytes, as: UTF8.self).contains("STARTTLS"))
        let start = session.receive(Array("STARTTLS\r\nMAIL FROM:<injected@x.example>\r\n".utf8))
        #expect(start.action == .startTLS)
        #expect(String(decoding: start.bytes, as: UTF8.self) == "220 2.0.0 Ready to start TLS\r\n")
        let after = session.receive(Array("MAIL FROM:<a@b.example>\r\n".utf8))
        #expect(String(decoding: after.bytes, as: UTF8.self).hasPrefix("503"))
        let again = session.receive(Array("EHLO c\r\nSTARTTLS\r\n".utf8))
        #expect(!String(decoding: again.bytes, as: UTF8.self).contains("STARTTLS\r\n"))
        #expect(codes(String(decoding: again.bytes, as: UTF8.self)) == ["250", "500"])
    }

    @Test func recipientLimitIs452() {
        let recipients = (0..<4).map { "RCPT TO:<r\($0)@y.example>\r\n" }.joined()
        let result = converse("EHLO c\r\nMAIL FROM:<a@b.example>\r\n" + recipients) { $0.maxRecipients = 2 }
        #expect(codes(result.text) == ["220", "250", "250", "250", "250", "452", "452"])
    }

    @Test func timeoutReplyIs421() {
        let session = SMTPSession(configuration: .init(), policy: RecordingPolicy(), remoteAddress: "")
        #expect(String(decoding: session.timeoutReply(), as: UTF8.self).hasPrefix("421 4.4.2 "))
    }
}
