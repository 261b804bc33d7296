import JSON
import SIWATestSupport
import Testing

@testable import Mailbox
@testable import SIWAServer

/// A JSON view of a message copies at most `MailViewBudget.maximumBytes` of its text, cut at a
/// character boundary, and says what it cut (issue 36 finding 1: a view once answered 131 MB).
@Suite struct MailViewBudgetTests {
    @Test func takeCutsAtACharacterBoundaryAndNamesTheField() {
        var budget = MailViewBudget()
        let small = budget.take("héllo", as: "headers")
        #expect(small == "héllo" && budget.cut.isEmpty)
        let big = String(repeating: "é", count: MailViewBudget.maximumBytes)
        let cut = budget.take(big, as: "text")
        #expect(cut.utf8.count <= MailViewBudget.maximumBytes - 6 && cut.utf8.count % 2 == 0)
        #expect(cut.allSatisfy { $0 == "é" })
        #expect(budget.take("more", as: "html").isEmpty && budget.cut == ["text", "html"])
    }

    @Test func aDetailOfAHugeControlByteTextStaysWithinTheBudget() throws {
        try ControlHarness.run(.inProcess) { harness in
            let text = String(repeating: "\u{1}", count: 3 * 1024 * 1024)
            let raw = Array("From: a@b.example\r\nSubject: big\r\n\r\n\(text)".utf8)
            let record = harness.server.mailbox.add { id in
                MailRecord(
                    id: id, direction: .toUser, outcome: .accepted, reply: "250", reason: "", timeMilliseconds: 0,
                    teamID: nil, userID: nil, relayAddress: "r@privaterelay.appleid.com", deliveredTo: "x@y.example",
                    envelopeSender: "a@b.example", headerFrom: "a@b.example", rewrittenFrom: nil, subject: "big",
                    raw: raw)
            }
            let detail = try harness.call(.get, "/mock/mail/\(record.id)")
            #expect(detail.status == 200)
            // Each control byte is six bytes of JSON (\u0001): 2 MiB of text, 12 MiB of answer at most.
            #expect(detail.body.count < 13 * 1024 * 1024, "\(detail.body.count)")
            #expect(detail.json?["truncated"] == .array([.string("text")]))
            // The header values came first out of the same budget.
            let shown = detail.json?["text"]?.stringValue?.utf8.count ?? 0
            #expect(shown > MailViewBudget.maximumBytes - 64 && shown <= MailViewBudget.maximumBytes, "\(shown)")
            let mailpit = try harness.call(.get, "/api/v1/message/\(record.id)")
            #expect(mailpit.json?["Text"]?.stringValue?.utf8.count == MailViewBudget.maximumBytes)
        }
    }
}
