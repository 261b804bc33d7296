import EventLoop
import HTTP
import JSON
import SIWACore
import SIWATestSupport
import SMTP
import ScenarioModel
import Testing

@testable import SIWAServer

/// The relay's answers match what it does: no copy is accepted and then dropped, every originator
/// field is checked, names keep their encoding, replies fit 512 octets, refusals count toward the
/// error limit, and the journal carries the code on the wire.
@Suite struct RelayEdgeCaseTests {
    static let bob = MailEndpointTests.bob

    /// relay-mail.yaml's team plus a second team that registered only `other.example`; bob has a
    /// relay address in each.
    static let twoTeams = """
        seed: 15
        clock:
          start: 2026-01-01T09:00:00Z
          frozen: true
        teams:
          - id: ABCDE12345
            email_sources:
              - domain: shop.example
          - id: FGHIJ67890
            email_sources:
              - domain: other.example
        clients:
          - id: com.example.app
            team: ABCDE12345
          - id: com.other.app
            team: FGHIJ67890
        users:
          - id: bob
            email: bob@example.com
            private_email: true
            relay_email: k7x2m9q4ab@privaterelay.appleid.com
        """

    func converse(_ server: MockServer, _ text: String) -> String {
        MailEndpointTests().converse(server, text)
    }

    func message(from: String = "hello@shop.example", to: [String] = [bob], headers: String) -> String {
        "EHLO test\r\nMAIL FROM:<\(from)>\r\n" + to.map { "RCPT TO:<\($0)>\r\n" }.joined() + "DATA\r\n"
            + headers + "\r\nHello\r\n.\r\n"
    }

    /// The reply codes, one per final reply line.
    func codes(_ text: String) -> [String] {
        let lines: [Substring] = text.split(separator: "\r\n")
        return lines.filter { $0.count >= 4 && $0.dropFirst(3).first == " " }.map { String($0.prefix(3)) }
    }

    func records(_ harness: ControlHarness, _ query: String = "") throws -> [JSONObject] {
        guard case .array(let items)? = try harness.call(.get, "/mock/mail" + query).json?["messages"] else {
            return []
        }
        return items.compactMap { if case .object(let object) = $0 { object } else { nil } }
    }

    @Test func aMessageOneTeamWouldRefuseIsRefusedWholeNotHalfDelivered() throws {
        let scenario = try ScenarioFiles.loader.load(Self.twoTeams, file: "two-teams.yaml")
        let bob = try #require(scenario.users.first { $0.id == "bob" })
        let teamTwo = try #require(scenario.relayEmail(of: bob, inTeam: "FGHIJ67890"))
        try ControlHarness.run(.inProcess, scenario: scenario) { harness in
            let replies = converse(
                harness.server, message(to: [Self.bob, teamTwo], headers: "From: <hello@shop.example>\r\n"))
            #expect(codes(replies) == ["220", "250", "250", "250", "250", "354", "550"])
            #expect(replies.hasSuffix("550 5.1.1 <hello@shop.example>: unauthorized sender\r\n"))
            let stored = try records(harness)
            #expect(stored.map { $0["status"] } == [.string("rejected"), .string("rejected")])
            #expect(
                stored.allSatisfy { $0["smtp_reply"] == .string("550 5.1.1 <hello@shop.example>: unauthorized sender") }
            )
            #expect(try records(harness, "?status=delivered").isEmpty)
            // Nothing was counted toward the day's 100 either.
            #expect(harness.server.mailbox.deliveredToday(Self.bob, at: harness.clock.nowMilliseconds) == 0)
            // The same message to the team that registered the sender alone is delivered.
            #expect(
                converse(harness.server, message(headers: "From: <hello@shop.example>\r\n")).contains(
                    "250 2.0.0 Ok: queued as m3\r\n"))
        }
    }

    @Test(arguments: [
        "From: Shop <hello@shop.example>\r\nFrom: Evil <ceo@evil.example>\r\n",
        "From: Shop <hello@shop.example>, Evil <ceo@evil.example>\r\nSender: <hello@shop.example>\r\n",
        "From: Shop <hello@shop.example>\r\nSender: Evil <ceo@evil.example>\r\n",
        "From: Shop <hello@shop.example>\r\nSender: <hello@shop.example>\r\nSender: <ceo@evil.example>\r\n",
        "From: Shop <hello@shop.example>, not an address\r\n",
    ])
    func everyOriginatorFieldIsChecked(_ headers: String) throws {
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            let replies = converse(harness.server, message(headers: headers))
            #expect(replies.hasSuffix("550 5.1.1 <hello@shop.example>: unauthorized sender\r\n"), "\(headers)")
            let delivered = try records(harness, "?status=delivered")
            #expect(delivered.isEmpty)
        }
    }

    @Test func registeredSenderAndReplyToAreDelivered() throws {
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            let headers =
                "From: Shop <hello@shop.example>, <orders@shop.example>\r\nSender: <hello@shop.example>\r\n"
                + "Reply-To: <help@desk.example>\r\n"
            #expect(converse(harness.server, message(headers: headers)).contains("250 2.0.0 Ok: queued as m1"))
        }
    }

    @Test(arguments: [
        ("=?utf-8?q?Caf=C3=A9?= <hello@shop.example>", "=?utf-8?q?Caf=C3=A9?="),
        ("\"Shop \\\"Best\\\"\" <hello@shop.example>", "\"Shop \\\"Best\\\"\""),
        ("Shop Team <hello@shop.example>", "\"Shop Team\""),
        ("Shop (the best) <hello@shop.example>", "\"Shop (the best)\""),
        ("hello@shop.example", "\"hello@shop.example\""),
    ])
    func theDisplayNameIsKeptAsWritten(_ from: String, _ shown: String) throws {
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            let headers = "From: \(from)\r\nSubject: =?utf-8?q?Caf=C3=A9_au_lait?=\r\n"
            #expect(converse(harness.server, message(headers: headers)).contains("Ok: queued as m1"))
            let raw = String(decoding: try harness.call(.get, "/mock/mail/m1.eml").body, as: UTF8.self)
            #expect(raw.contains("\r\nFrom: \(shown) <hello_at_shop_example_"), "\(raw)")
            #expect(raw.contains("\r\nSubject: =?utf-8?q?Caf=C3=A9_au_lait?=\r\n"))
            #expect(try records(harness).first?["subject"] == .string("Café au lait"))
            let detail = try harness.call(.get, "/mock/mail/m1").json
            guard case .array(let headers)? = detail?["headers"] else { throw Failure.missing }
            #expect(
                headers.contains {
                    $0
                        == .object(
                            JSONObject([
                                ("name", .string("Subject")), ("value", .string("=?utf-8?q?Caf=C3=A9_au_lait?=")),
                                ("decoded", .string("Café au lait")),
                            ]))
                })
        }
    }

    enum Failure: Error { case missing }

    @Test func aLongListOfCopiesFitsOneReplyLine() {
        let ids = (101...200).map { "m\($0)" }
        let text = "Ok: queued as " + RelayPolicy.idList(ids)
        #expect(text == "Ok: queued as m101..m200 (100 messages)")
        #expect(RelayPolicy.idList(["m1", "m2"]) == "m1,m2")
        let fits = (1...40).map { "m\($0)" }
        #expect(RelayPolicy.idList(fits) == fits.joined(separator: ","))
    }

    @Test func refusedRecipientsCloseTheSessionAfterTwenty() throws {
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            let recipients = (0..<40).map { "RCPT TO:<r\($0)@elsewhere.example>\r\n" }.joined()
            let replies = converse(harness.server, "EHLO test\r\nMAIL FROM:<hello@shop.example>\r\n" + recipients)
            #expect(replies.components("550 5.7.1") == 20)
            #expect(replies.hasSuffix("421 4.7.0 Error: too many errors\r\n"))
            let stored = try records(harness)
            #expect(stored.count == 20)
        }
    }

    @Test func aRepeatedRecipientGetsOneCopyCountedOnce() throws {
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            let replies = converse(
                harness.server,
                message(to: [Self.bob, Self.bob, Self.bob.uppercased()], headers: "From: <hello@shop.example>\r\n"))
            #expect(replies.contains("250 2.0.0 Ok: queued as m1\r\n"))
            let stored = try records(harness)
            #expect(stored.count == 1)
            #expect(harness.server.mailbox.deliveredToday(Self.bob, at: harness.clock.nowMilliseconds) == 1)
        }
    }

    @Test func theJournalCarriesTheReplyOnTheWire() throws {
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            _ = converse(harness.server, message(headers: "From: <hello@shop.example>\r\n"))
            let rcpt = String(decoding: try harness.call(.get, "/mock/requests?path=RCPT%20TO").body, as: UTF8.self)
            #expect(rcpt.contains("(250 2.0.0 OK)"), "\(rcpt)")
            let data = String(decoding: try harness.call(.get, "/mock/requests?path=DATA").body, as: UTF8.self)
            #expect(data.contains("(250 2.0.0 Ok: queued as m1)"), "\(data)")
            #expect(try records(harness).first?["smtp_reply"] == .string("250 2.0.0 Ok: queued as m1"))
        }
    }

    /// 24 connections each sending 256 KiB without the final dot, under a 768 KiB bound: three hold their
    /// message, the others are refused with 452; the dot then delivers the three, and a connection
    /// that goes mid-message gives its bytes back.
    @Test func halfSentMessagesAreBoundTogether() throws {
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            var options = RelaySMTPService.Options()
            options.maxPendingBytes = 768 * 1024
            let service = RelaySMTPService(server: harness.server, options: options)
            func send(_ session: any StreamSession, _ bytes: [UInt8]) -> String {
                bytes.withUnsafeBytes { String(decoding: session.receive($0).bytes, as: UTF8.self) }
            }
            let start = Array(
                "EHLO test\r\nMAIL FROM:<hello@shop.example>\r\nRCPT TO:<\(Self.bob)>\r\nDATA\r\n".utf8)
            let from = Array("From: <hello@shop.example>\r\n\r\n".utf8)
            let body = from + Array(repeating: UInt8(ascii: "a"), count: 256 * 1024 - 16 - from.count)
            var sessions: [any StreamSession] = []
            var replies: [String] = []
            for _ in 0..<24 {
                let session = service.makeSession(remoteAddress: "127.0.0.1:9")
                _ = session.open()
                replies.append(send(session, start) + send(session, body))
                #expect(service.pendingBytes <= options.maxPendingBytes)
                sessions.append(session)
            }
            #expect(service.pendingBytes == 768 * 1024)
            for (index, session) in sessions.enumerated() { replies[index] += send(session, Array("\r\n.\r\n".utf8)) }
            #expect(replies.filter { $0.contains("250 2.0.0 Ok: queued as") }.count == 3)
            #expect(replies.filter { $0.contains("452 4.3.1 Error: insufficient system storage") }.count == 21)
            #expect(service.pendingBytes == 0)
            var leaving: (any StreamSession)? = service.makeSession(remoteAddress: "127.0.0.1:9")
            _ = leaving.map { send($0, start + body) }
            #expect(service.pendingBytes == 256 * 1024)
            leaving = nil
            #expect(service.pendingBytes == 0)
        }
    }
}
