import HTTP
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import Testing

/// The relay's decisions reach the mailbox and the journal; `/mock/mail` shows them in-process and
/// over a live socket.
@Suite struct MailEndpointTests {
    static let bob = "k7x2m9q4ab@privaterelay.appleid.com"

    /// Feeds one SMTP conversation to a session of the relay service; returns the server's replies.
    func converse(_ server: MockServer, _ text: String) -> String {
        let session = RelaySMTPService(server: server).makeSession(remoteAddress: "127.0.0.1:5")
        var out = session.open().bytes
        Array(text.utf8).withUnsafeBytes { out += session.receive($0).bytes }
        return String(decoding: out, as: UTF8.self)
    }

    func transaction(from: String, to: String = bob, headers: String = "") -> String {
        "EHLO test\r\nMAIL FROM:<\(from)>\r\nRCPT TO:<\(to)>\r\nDATA\r\n"
            + "From: Shop <\(from)>\r\nSubject: Hi\r\n\(headers)\r\nHello\r\n.\r\n"
    }

    func json(_ response: TestResponse) -> JSONObject { response.json ?? JSONObject() }

    func messages(_ response: TestResponse) -> [JSONValue] {
        guard case .array(let items)? = json(response)["messages"] else { return [] }
        return items
    }

    @Test(arguments: Transport.allCases) func deliveredAndRefusedMailIsListed(_ transport: Transport) throws {
        try ControlHarness.run(transport, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            let replies = converse(
                harness.server, transaction(from: "hello@shop.example") + transaction(from: "x@evil.example"))
            #expect(replies.contains("250 2.0.0 Ok: queued as m1\r\n"))
            #expect(replies.contains("550 5.1.1 <x@evil.example>: unauthorized sender\r\n"))
            let list = try harness.call(.get, "/mock/mail")
            #expect(list.status == 200)
            #expect(messages(list).count == 2)
            let rejected = try harness.call(.get, "/mock/mail?status=rejected&sender=x@evil.example")
            #expect(messages(rejected).count == 1)
            let detail = json(try harness.call(.get, "/mock/mail/m1"))
            #expect(detail["text"] == .string("Hello\r\n"))
            #expect(detail["delivered_to"] == .string("bob@example.com"))
            let raw = String(decoding: try harness.call(.get, "/mock/mail/m1.eml").body, as: UTF8.self)
            #expect(
                raw.hasPrefix(
                    "Received: from test (127.0.0.1:5) by privaterelay.appleid.com with ESMTP for <bob@example.com>"))
            #expect(raw.contains("\r\nFrom: \"Shop\" <hello_at_shop_example_"))
            #expect(!raw.contains("<hello@shop.example>"))
            #expect(try harness.call(.get, "/mock/mail/m9").status == 404)
            #expect(try harness.call(.get, "/mock/mail?since=yesterday").status == 400)
            let journal = String(decoding: try harness.call(.get, "/mock/requests?path=DATA").body, as: UTF8.self)
            #expect(journal.contains("\"kind\":\"mail\"") && journal.contains("unauthorized sender"))
            let reply = try harness.call(.post, "/mock/mail/m1/reply", .object(JSONObject([("text", .string("ok"))])))
            #expect(reply.status == 201)
            #expect(json(reply)["delivered_to"] == .string("hello@shop.example"))
            #expect(try harness.call(.post, "/mock/mail/m2/reply").status == 409)
            #expect(json(try harness.call(.delete, "/mock/mail"))["cleared"] == .int(3))
        }
    }

    @Test func theDailyLimitDefersAndTheNextMockDayAcceptsAgain() throws {
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            let hundred = String(repeating: transaction(from: "hello@shop.example"), count: 100)
            let replies = converse(
                harness.server, hundred + "MAIL FROM:<hello@shop.example>\r\nRCPT TO:<\(Self.bob)>\r\n")
            #expect(replies.components("250 2.0.0 Ok: queued as") == 100)
            #expect(
                replies.hasSuffix(
                    "450 4.2.1 <\(Self.bob)>: receiving mail at a rate that prevents additional messages from being delivered; try again later\r\n"
                ))
            harness.clock.advance(milliseconds: 86_400_000)
            #expect(converse(harness.server, transaction(from: "hello@shop.example")).contains("Ok: queued as m102"))
        }
    }

    @Test func aMailboxOverItsCapDropsTheOldest() throws {
        var options = MockServer.ControlOptions()
        options.mailboxLimits.maxRecords = 3
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml"), options: options) {
            harness in
            _ = converse(harness.server, String(repeating: transaction(from: "hello@shop.example"), count: 5))
            let list = try harness.call(.get, "/mock/mail")
            #expect(messages(list).count == 3 && json(list)["dropped"] == .int(2))
            #expect(try harness.call(.get, "/mock/mail/m1").status == 404)
            #expect(try harness.call(.get, "/mock/mail/m5").status == 200)
        }
    }

    /// `POST /mock/reset` leaves the next test no mail and a fresh day's allowance (docs/relay-mail.md).
    @Test(arguments: Transport.allCases) func resetEmptiesTheMailboxAndTheDailyCounts(_ transport: Transport) throws {
        try ControlHarness.run(transport, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness throws in
            _ = converse(harness.server, transaction(from: "hello@shop.example"))
            let now = harness.clock.nowMilliseconds
            #expect(try messages(harness.call(.get, "/mock/mail")).count == 1)
            #expect(!harness.server.mailbox.reserveDelivery(Self.bob, at: now, limit: 1), "today's one is counted")
            #expect(try harness.call(.post, "/mock/reset").status == 200)
            #expect(try messages(harness.call(.get, "/mock/mail")).isEmpty)
            #expect(harness.server.mailbox.reserveDelivery(Self.bob, at: now, limit: 1), "the count went too")
        }
    }
}

extension String {
    /// Non-overlapping occurrences of `needle`.
    func components(_ needle: String) -> Int { split(separator: needle, omittingEmptySubsequences: false).count - 1 }
}
