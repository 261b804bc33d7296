import Testing

@testable import MIME

/// The MIME walk reads a bounded number of sections and part header fields whatever the message holds
/// (issue 36 finding 1: 200,000 empty parts once made a 32 MB JSON view), and says where it stopped.
@Suite struct MIMEBoundTests {
    static func multipart(_ body: String) -> MailMessage {
        MailMessage(parsing: Array(("Content-Type: multipart/mixed; boundary=k\r\n\r\n" + body).utf8))
    }

    @Test func manyEmptyPartsStopAtTheBoundWithANote() {
        let message = Self.multipart(String(repeating: "--k\r\n\r\n", count: 200_000))
        let list = message.partList
        #expect(list.parts.count == MailMessage.maxParts)
        #expect(list.truncated && !list.tooDeep)
        #expect(list.note?.hasPrefix("more than 1000 MIME parts") == true)
        #expect(list.parts.last?.id == "1000")
        #expect(message.textParts.note == list.note)
    }

    @Test func aMessageUnderTheBoundIsReadWholeWithoutANote() {
        let message = Self.multipart(String(repeating: "--k\r\n\r\nx\r\n", count: 999) + "--k--\r\n")
        #expect(message.partList.parts.count == 999 && !message.partList.truncated)
        #expect(message.textParts.note == nil)
    }

    @Test func theBoundCountsSectionsAtEveryLevel() {
        let inner =
            "Content-Type: multipart/mixed; boundary=j\r\n\r\n" + String(repeating: "--j\r\n\r\n", count: 600)
            + "--j--\r\n"
        let message = Self.multipart("--k\r\n" + inner + "--k\r\n" + inner + "--k--\r\n")
        let list = message.partList
        #expect(list.truncated)
        // Two outer sections, then 600 + 398 inner ones: 1000 sections read in all.
        #expect(list.parts.count == 998, "\(list.parts.count)")
    }

    @Test func nestingDeeperThanTheBoundIsOnePartAndSaidSo() {
        var body = "x\r\n"
        for level in 0..<12 {
            body = "Content-Type: multipart/mixed; boundary=b\(level)\r\n\r\n--b\(level)\r\n\(body)--b\(level)--\r\n"
        }
        let message = MailMessage(parsing: Array(body.utf8))
        let list = message.partList
        #expect(list.tooDeep && !list.truncated && list.parts.count == 1)
        #expect(list.note?.contains("nested deeper than 8") == true)
    }

    @Test func aPartKeepsAtMostItsShareOfHeaderFields() {
        let fields = (0..<5000).map { "X-\($0): y\r\n" }.joined()
        let message = Self.multipart("--k\r\n" + fields + "Content-Type: text/plain\r\n\r\nhi\r\n--k--\r\n")
        let part = message.parts[0]
        #expect(part.message.fields.count == MailMessage.maxPartFields)
        // Fields past the share are dropped, not parsed into the body: the body is still the text.
        #expect(Array(part.message.body) == Array("hi".utf8))
    }

    /// Storing a message counts its attachments without decoding a part: the count is the one
    /// `textParts` gives.
    @Test func attachmentsAreCountedAsTextPartsListsThem() {
        let bodies = [
            "--k\r\nContent-Type: text/plain\r\n\r\na\r\n--k\r\nContent-Type: text/plain\r\n\r\nb\r\n--k--\r\n",
            "--k\r\nContent-Type: text/html\r\n\r\n<p>\r\n--k\r\nContent-Type: text/html\r\n\r\n<p>\r\n--k--\r\n",
            "--k\r\nContent-Type: text/plain\r\nContent-Disposition: attachment\r\n\r\na\r\n--k--\r\n",
            "--k\r\nContent-Type: image/png\r\nContent-Disposition: inline\r\nContent-ID: <i>\r\n\r\nx\r\n"
                + "--k\r\nContent-Type: application/pdf\r\n\r\n%PDF\r\n--k--\r\n",
            String(repeating: "--k\r\n\r\n", count: 1500),
        ]
        for body in bodies {
            let message = Self.multipart(body)
            #expect(
                MailMessage.TextParts.attachmentCount(of: message.parts) == message.textParts.attachments.count,
                "\(body.prefix(60).debugDescription)")
        }
    }

    /// Fields past the message's cap are scanned for the header's end, not kept: the body still starts
    /// after the blank line.
    @Test func fieldsPastTheCapAreSkippedUpToTheBody() {
        let fields = (0..<3000).map { "X-\($0): y\r\n \(String(repeating: "z", count: $0 % 3))\r\n" }.joined()
        let message = MailMessage(parsing: Array((fields + "\r\nbody").utf8))
        #expect(message.fields.count == MailMessage.maxFields)
        #expect(message.fields.last?.name == "X-999")
        #expect(Array(message.body) == Array("body".utf8))
    }
}
