import MIME
import Testing

@Suite struct MailMessageTests {
    @Test func foldedFieldsAreUnfoldedAndTheBodyFollowsTheBlankLine() {
        let raw = "From: \"Shop\" <news@shop.example>\r\nSubject: a\r\n  long one\r\nX: 1\r\n\r\nbody\r\n"
        let message = MailMessage(parsing: Array(raw.utf8))
        #expect(message.field("subject") == "a long one")
        #expect(message.fields.count == 3)
        #expect(Array(message.body) == Array("body\r\n".utf8))
        #expect(MailAddress.firstAddress(inField: message.field("From")!) == "news@shop.example")
        #expect(MailAddress.displayName(inField: message.field("From")!) == "Shop")
    }

    @Test func aLineWithoutColonEndsTheHeader() {
        let message = MailMessage(parsing: Array("A: 1\nnot a header\nB: 2\n".utf8))
        #expect(message.fields.map(\.name) == ["A"])
        #expect(Array(message.body) == Array("not a header\nB: 2\n".utf8))
    }

    @Test func dripFedPrefixesNeverCrashAndKeepFieldsSoFar() {
        let raw = Array("A: 1\r\n b\r\nC:\r\n\r\nx".utf8)
        for end in 0...raw.count {
            let message = MailMessage(parsing: raw[0..<end])
            #expect(message.fields.count <= 2)
        }
    }

    @Test func multipartAlternativeGivesTextAndHTML() {
        let raw = """
            Content-Type: multipart/alternative; boundary="b1"\r
            \r
            preamble\r
            --b1\r
            Content-Type: text/plain; charset=utf-8\r
            Content-Transfer-Encoding: quoted-printable\r
            \r
            caf=C3=A9 =\r
            ok\r
            --b1\r
            Content-Type: text/html\r
            Content-Transfer-Encoding: base64\r
            \r
            PGI+aGk8L2I+\r
            --b1--\r

            """
        let parts = MailMessage(parsing: Array(raw.utf8)).textParts
        #expect(parts.text == "café ok")
        #expect(parts.html == "<b>hi</b>")
    }

    @Test func dkimDomainsAreReadFromTheTagList() {
        let raw = "DKIM-Signature: v=1; a=rsa-sha256; d=Mail.Shop.example;\r\n s=s1; b=abc\r\n\r\n"
        #expect(MailAddress.dkimDomains(MailMessage(parsing: Array(raw.utf8))) == ["mail.shop.example"])
    }
}
