import Testing

@testable import MIME

/// What the mock writes into header fields holds no line break (issue 36 findings 2 and 3): addresses
/// read from a message or an envelope cannot carry one inside a quoted local part, and `fieldText`
/// turns every control character and Unicode line separator of a copied value into a space.
@Suite struct FieldTextTests {
    static let breaks = ["\r", "\n", "\r\n", "\0", "\u{0B}", "\u{7F}", "\u{85}", "\u{2028}", "\u{2029}"]

    @Test func aQuotedLocalPartWithALineBreakIsNoMailbox() {
        for line in Self.breaks {
            let text = "\"a\(line)Bcc: victim@attacker.example\"@shop.example"
            #expect(!MailAddress.isMailbox(Substring(text)), "\(text.debugDescription)")
            #expect(!MailAddress.isMailboxByCharacters(Substring(text)), "\(text.debugDescription)")
            #expect(MailAddress.addresses(inField: "Shop <\(text)>") == nil, "\(text.debugDescription)")
        }
        for text in ["\"a b\"@shop.example", "\"a\\\"b\"@shop.example", "\"é\"@shop.example"] {
            #expect(MailAddress.isMailbox(Substring(text)), "\(text)")
        }
        for text in ["\"a\"b\"@x.example", "\"a\\\"@x.example", "\"\"\"@x.example"] {
            #expect(!MailAddress.isMailbox(Substring(text)), "\(text)")
        }
    }

    @Test func fieldTextLeavesOneLine() {
        for line in Self.breaks {
            let copied = MailMessage.fieldText("Re: hi\(line)Bcc: victim@attacker.example")
            #expect(MailMessage.isFieldText(copied) && !copied.contains("\r") && !copied.contains("\n"))
            #expect(copied.hasSuffix("Bcc: victim@attacker.example") && copied.hasPrefix("Re: hi"))
        }
        #expect(MailMessage.fieldText("Caf\u{E9}\tok") == "Caf\u{E9}\tok")
        #expect(!MailMessage.isFieldText("a\rb") && MailMessage.isFieldText("a\tb é"))
    }
}
