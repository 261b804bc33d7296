import MIME
import Testing

/// Originator fields read as mailbox lists, and RFC 2047 encoded words decoded for display.
@Suite struct MailHeaderTests {
    @Test func everyMailboxOfAListIsRead() {
        let field = #""Doe, Jane" <jane@shop.example>, ceo@evil.example (the boss, really), Bob <b@x.example>"#
        #expect(
            MailAddress.addresses(inField: field) == ["jane@shop.example", "ceo@evil.example", "b@x.example"])
        #expect(MailAddress.firstAddress(inField: field) == "jane@shop.example")
        #expect(MailAddress.phrase(inField: field) == #""Doe, Jane""#)
        #expect(MailAddress.addresses(inField: "a@shop.example, not an address") == nil)
        #expect(MailAddress.addresses(inField: "  ") == nil)
        #expect(MailAddress.phrase(inField: "=?utf-8?q?Caf=C3=A9?= <hello@shop.example>") == "=?utf-8?q?Caf=C3=A9?=")
    }

    @Test(arguments: [
        ("=?utf-8?q?Caf=C3=A9?=", "Café"),
        ("=?UTF-8?B?Q2Fmw6k=?= au lait", "Café au lait"),
        ("Re: =?utf-8?q?Your_order?= =?utf-8?q?_is_here?=", "Re: Your order is here"),
        ("=?iso-8859-1?q?na=EFve?=", "naïve"),
        ("=?koi8-r?q?x?= stays", "=?koi8-r?q?x?= stays"),
        ("=?utf-8?x?abc?=", "=?utf-8?x?abc?="),
        ("=?utf-8?q?=FF?=", "=?utf-8?q?=FF?="),
        ("plain  text ", "plain  text "),
    ])
    func encodedWordsAreDecoded(_ raw: String, _ shown: String) {
        #expect(EncodedWords.decode(raw) == shown)
    }
}
