import HTTP
import JSON
import MIME
import Mailbox
import SIWATestSupport
import Synchronization
import Testing

@testable import SIWAServer

/// A stored message is parsed once, when it is stored (`MailIndex`): lists, `latest`'s lookup,
/// searches and waits read the index, so their cost does not grow with what each message holds
/// (issue 38: `GET /api/v1/messages?limit=1` once parsed every stored message). Parses are counted
/// on this test's thread only (`MailMessage.parseCounter`), so suites running alongside do not count;
/// requests go through the whole pipeline on this thread (`respondHere`: the pipeline would run views
/// of stored mail on a background lane, where this thread's counter does not reach).
@Suite struct MailParseCountTests {
    static let bob = "k7x2m9q4ab@privaterelay.appleid.com"
    static let stored = 40

    /// Messages parsed while `body` runs.
    func parses(_ body: () throws -> Void) rethrows -> Int {
        let counter = ParseCounter()
        try MailMessage.$parseCounter.withValue(counter) { try body() }
        return counter.count
    }

    /// A control GET answered by the whole pipeline on this thread; its JSON body.
    func get(_ harness: ControlHarness, _ target: String) throws -> JSONObject {
        let request = HTTPRequest(method: .get, target: target, headers: HTTPHeaders([("Host", "127.0.0.1")]))
        let pipeline = harness.server.pipeline
        let response = pipeline.respondHere(to: request, pipeline.table.match(request.method, request.path))
        #expect(response.status == .ok, "\(target)")
        return try #require(try JSONValue.parse(response.body).objectValue, "\(target)")
    }

    func store(_ mailbox: Mailbox, _ number: Int, subject: String = "Note") {
        let raw =
            "From: Shop <hello@shop.example>\r\nTo: Bob <\(Self.bob)>\r\nSubject: \(subject) \(number)\r\n"
            + "Message-ID: <n\(number)@shop.example>\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
            + "--b\r\nContent-Type: text/plain\r\n\r\nBody number \(number)\r\n"
            + "--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"r\(number).pdf\"\r\n"
            + "Content-Transfer-Encoding: base64\r\n\r\nJVBERi0=\r\n--b--\r\n"
        mailbox.add { id in
            MailRecord(
                id: id, direction: .toUser, outcome: .accepted, reply: "250 2.0.0 Ok: queued as \(id)", reason: "",
                timeMilliseconds: 0, teamID: "T", userID: "u", relayAddress: Self.bob, deliveredTo: "bob@example.com",
                envelopeSender: "hello@shop.example", headerFrom: "hello@shop.example", rewrittenFrom: nil,
                subject: "\(subject) \(number)", raw: Array(raw.utf8))
        }
    }

    @Test func listsSearchesAndWaitsParseNoStoredMessage() throws {
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            let mailbox = harness.server.mailbox
            #expect(parses { for number in 1...Self.stored { store(mailbox, number) } } == Self.stored)
            let reads: [(target: String, count: Int)] = [
                ("/api/v1/messages?limit=1", 1), ("/api/v1/messages?start=5&limit=10", 10),
                ("/api/v1/search?query=%22body%20number%2017%22", 1), ("/api/v1/search?query=r23.pdf", 1),
                ("/api/v1/search?query=from:shop%20subject:note%20has:attachment", Self.stored),
                ("/mock/mail?query=to:bob%20-subject:%22note%201%22", Self.stored - 11),
                ("/mock/mail?relay_address=\(Self.bob)&query=note&wait=5s", Self.stored),
            ]
            for read in reads {
                var json = JSONObject()
                let parsed = try parses { json = try get(harness, read.target) }
                #expect(parsed == 0, "\(read.target) parsed \(parsed) stored messages")
                let listed = json["messages"]?.arrayValue?.count ?? -1
                #expect(listed == read.count, "\(read.target): \(listed)")
            }
            // `latest` finds the newest message without parsing the others: it parses the one it shows.
            var latest = JSONObject()
            let parsed = try parses { latest = try get(harness, "/api/v1/message/latest") }
            #expect(parsed == 1, "latest parsed \(parsed)")
            #expect(latest["Subject"] == .string("Note \(Self.stored)"))
            #expect(latest["Text"] == .string("Body number \(Self.stored)"))
        }
    }

    @Test func aParkedWaitIsAnsweredWithoutParsing() throws {
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            let mailbox = harness.server.mailbox
            for number in 1...Self.stored { store(mailbox, number) }
            let answer = harness.server.pipeline.respond(
                to: HTTPRequest(
                    method: .get, target: "/mock/mail?query=subject:later%20body&wait=60s",
                    headers: HTTPHeaders([("Host", "127.0.0.1")])))
            guard case .deferred(let pending) = answer.delivery else {
                Issue.record("no match is stored yet: the request waits")
                return
            }
            let finished = Mutex<HTTPResponse?>(nil)
            pending.whenFulfilled { response in finished.withLock { $0 = response } }
            #expect(mailbox.waiters.count == 1)
            // The new message is parsed once, to index it; the waiter's search and the answer parse none.
            #expect(parses { store(mailbox, 99, subject: "Later") } == 1)
            let body = try #require(finished.withLock { $0 }?.body, "the stored match answered the wait")
            let messages = try JSONValue.parse(body).objectValue?["messages"]?.arrayValue
            #expect(messages?.count == 1 && messages?.first?.objectValue?["subject"] == .string("Later 99"))
        }
    }
}
