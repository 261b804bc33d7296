import MIME
import Testing

/// The MIME leaf walk behind the viewer's attachments: IMAP section numbers (RFC 9051 §6.4.5), file
/// names in their three spellings, decoded bytes, and which parts count as attachments.
@Suite struct MailPartsTests {
    static let nested = """
        Content-Type: multipart/mixed; boundary="outer"\r
        \r
        --outer\r
        Content-Type: multipart/alternative; boundary="inner"\r
        \r
        --inner\r
        Content-Type: text/plain; charset=utf-8\r
        \r
        plain\r
        --inner\r
        Content-Type: text/html\r
        \r
        <p>html</p>\r
        --inner--\r
        --outer\r
        Content-Type: application/pdf; name="ignored.pdf"\r
        Content-Disposition: attachment; filename*=UTF-8''re%C3%A7u.pdf\r
        Content-Transfer-Encoding: base64\r
        \r
        JVBERi0xLjQK\r
        --outer\r
        Content-Type: image/png\r
        Content-Disposition: INLINE\r
        Content-ID: <logo@shop>\r
        Content-Transfer-Encoding: base64\r
        \r
        iVBORw0KGgo=\r
        --outer\r
        Content-Type: text/plain; name="=?utf-8?q?notes_=C3=A0_lire.txt?="\r
        Content-Disposition: attachment\r
        \r
        a note\r
        --outer--\r

        """

    @Test func leavesAreNumberedAsIMAPSections() {
        let message = MailMessage(parsing: Array(Self.nested.utf8))
        #expect(message.parts.map(\.id) == ["1.1", "1.2", "2", "3", "4"])
        #expect(
            message.parts.map(\.contentType) == [
                "text/plain", "text/html", "application/pdf", "image/png", "text/plain",
            ])
        let single = MailMessage(parsing: Array("Subject: x\r\n\r\nhello\r\n".utf8))
        #expect(single.parts.map(\.id) == ["1"])
    }

    @Test func fileNamesAndBytesAreDecoded() throws {
        let parts = MailMessage(parsing: Array(Self.nested.utf8)).textParts
        #expect(parts.text == "plain" && parts.html == "<p>html</p>")
        #expect(parts.others.map(\.id) == ["2", "3", "4"])
        let pdf = try #require(parts.others.first)
        #expect(pdf.filename == "reçu.pdf", "filename* (RFC 2231) wins over the Content-Type's name")
        #expect(pdf.message.decodedBytes == Array("%PDF-1.4\n".utf8))
        #expect(pdf.disposition == "attachment" && !pdf.isInline)
        let logo = parts.others[1]
        #expect(logo.isInline && logo.contentID == "logo@shop" && logo.filename == nil)
        #expect(logo.message.decodedBytes == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(parts.others[2].filename == "notes à lire.txt", "an encoded word in name= is decoded")
        #expect(parts.attachments.map(\.id) == ["2", "4"], "the inline image is not listed as an attachment")
        #expect(parts.otherTypes == ["application/pdf", "image/png", "text/plain"])
    }

    /// RFC 2231 §3–4.1: a long name continued over `filename*0`, `filename*1`, … with encoded segments
    /// (`*0*`, charset and language on the first only) and plain ones mixed.
    @Test func continuedNamesAreJoinedAndDecoded() {
        func filename(_ disposition: String) -> String? {
            let raw = "Content-Type: application/pdf\r\nContent-Disposition: attachment;\r\n \(disposition)\r\n\r\nx"
            return MailMessage(parsing: Array(raw.utf8)).parts[0].filename
        }
        #expect(
            filename("filename*0*=UTF-8'fr'r%C3%A9sum; filename*1*=%C3%A9-2026; filename*2=\".pdf\"")
                == "résumé-2026.pdf")
        #expect(filename("filename*0=\"a-very-long-\"; filename*1=\"name.txt\"") == "a-very-long-name.txt")
        #expect(filename("filename*0*=iso-8859-1''caf%E9; filename*1=\".txt\"") == "café.txt")
        #expect(filename("filename*1=\"orphan.txt\"; filename=\"plain.txt\"") == "plain.txt", "no *0: the plain name")
        #expect(filename("filename*0*=no-quotes; filename=\"plain.txt\"") == "plain.txt", "malformed: the plain name")
    }

    @Test func badExtendedValuesFallBack() {
        let raw =
            "Content-Type: application/zip; name=b.zip\r\nContent-Disposition: attachment; filename*=koi8-r''%F0\r\n\r\nx"
        let part = MailMessage(parsing: Array(raw.utf8)).parts[0]
        #expect(part.filename == "b.zip", "an unknown charset falls back to the Content-Type's name")
    }
}
