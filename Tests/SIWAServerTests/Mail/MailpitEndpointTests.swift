import HTTP
import JSON
import SIWACore
import SIWATestSupport
import Testing

@testable import Mailbox
@testable import SIWAServer

/// The Mailpit-compatible subset at `/api/v1/`: Mailpit's paths and JSON shapes over the relay's
/// delivered mail, in-process and over a live socket.
@Suite struct MailpitEndpointTests {
    static let bob = "k7x2m9q4ab@privaterelay.appleid.com"

    func converse(_ server: MockServer, _ text: String) {
        let session = RelaySMTPService(server: server).makeSession(remoteAddress: "127.0.0.1:5")
        _ = session.open()
        Array(text.utf8).withUnsafeBytes { _ = session.receive($0) }
    }

    func transaction(from: String, subject: String, body: String = "Hello Bob") -> String {
        "EHLO test\r\nMAIL FROM:<\(from)>\r\nRCPT TO:<\(Self.bob)>\r\nDATA\r\n"
            + "From: =?utf-8?q?Caf=C3=A9?= <\(from)>\r\nTo: Bob <\(Self.bob)>\r\nSubject: \(subject)\r\n"
            + "Message-ID: <\(subject.lowercased())@shop.example>\r\n\r\n\(body)\r\n.\r\n"
    }

    @Test(arguments: Transport.allCases) func mailpitPathsAndShapes(_ transport: Transport) throws {
        try ControlHarness.run(transport, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            converse(
                harness.server,
                transaction(from: "hello@shop.example", subject: "Welcome")
                    + transaction(from: "x@evil.example", subject: "Refused")
                    + transaction(from: "hello@shop.example", subject: "Receipt", body: "Order 42 shipped"))
            let list = try harness.call(.get, "/api/v1/messages")
            #expect(list.status == 200)
            let json = try #require(list.json)
            #expect(json["total"] == .int(2) && json["messages_count"] == .int(2) && json["start"] == .int(0))
            #expect(json["tags"] == .array([]))
            let messages = try #require(json["messages"]?.arrayValue).compactMap(\.objectValue)
            #expect(messages.map { $0["Subject"] } == [.string("Receipt"), .string("Welcome")], "newest first")
            let first = try #require(messages.first)
            #expect(first["ID"] == .string("m3") && first["MessageID"] == .string("receipt@shop.example"))
            #expect(first["From"]?.objectValue?["Name"] == .string("Café"))
            #expect(first["From"]?.objectValue?["Address"]?.stringValue?.hasSuffix("@privaterelay.appleid.com") == true)
            #expect(first["To"] == .array([.object(JSONObject([("Name", "Bob"), ("Address", .string(Self.bob))]))]))
            #expect(first["Snippet"] == .string("Order 42 shipped") && first["Read"] == .bool(false))
            let paged = try #require(try harness.call(.get, "/api/v1/messages?start=1&limit=1").json)
            #expect(paged["count"] == .int(1) && paged["start"] == .int(1))

            let latest = try #require(try harness.call(.get, "/api/v1/message/latest").json)
            #expect(latest["ID"] == .string("m3") && latest["Text"] == .string("Order 42 shipped\r\n"))
            #expect(latest["HTML"] == .string("") && latest["Attachments"] == .array([]))
            let raw = try harness.call(.get, "/api/v1/message/m1/raw")
            #expect(raw.status == 200 && raw.headers["Content-Type"] == "text/plain; charset=utf-8")
            #expect(raw.text.contains("Subject: Welcome\r\n"))
            #expect(try harness.call(.get, "/api/v1/message/m2").status == 404, "a refused attempt is no message")

            let found = try #require(try harness.call(.get, "/api/v1/search?query=subject:welcome").json)
            #expect(found["messages_count"] == .int(1) && found["total"] == .int(2))
            let shipped = try harness.call(.get, "/api/v1/search?query=%22order%2042%22%20!subject:welcome")
            #expect(shipped.json?["messages"]?.arrayValue?.count == 1)
            let tag = try harness.call(.get, "/api/v1/search?query=tag:x")
            #expect(tag.status == 400 && tag.json?["field"] == .string("query"))
            #expect(try harness.call(.get, "/api/v1/search").status == 400)
            #expect(try harness.call(.get, "/api/v1/messages?limit=0").status == 400)

            let delete = try harness.call(.delete, "/api/v1/messages", .object(JSONObject([("IDs", ["m1", "m9"])])))
            #expect(delete.status == 200 && delete.text == "ok")
            #expect(try harness.call(.get, "/api/v1/messages").json?["total"] == .int(1))
            #expect(try harness.call(.delete, "/api/v1/messages").status == 200)
            #expect(try harness.call(.get, "/api/v1/messages").json?["total"] == .int(0))
            #expect(try harness.call(.get, "/mock/mail?status=rejected").json?["messages"]?.arrayValue?.count == 1)
            #expect(try harness.call(.get, "/api/v1/message/latest").status == 404)
        }
    }

    @Test func theAdminTokenGuardsTheMailpitPathsToo() throws {
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml"), adminToken: "T") {
            harness in
            let refused = try harness.call(.get, "/api/v1/messages")
            let granted = try harness.call(.get, "/api/v1/messages", token: "T")
            #expect(refused.status == 401 && granted.status == 200)
        }
    }

    @Test(arguments: [
        ("", "Error: no search query"),
        ("\"open", "unterminated quote in '\"open'"),
        ("before:2024/04/01", "'before:2024/04/01' is not in siwa-mock's Mailpit subset"),
        ("is:tagged", "'is:tagged' is not in siwa-mock's Mailpit subset"),
        ("subject:", "'subject:' has nothing to search for"),
        ("larger:big", "'larger:big' needs a size: bytes, K or M (e.g. 500, 2kb, 1.5M)"),
        ("smaller:1g", "'smaller:1g' needs a size: bytes, K or M (e.g. 500, 2kb, 1.5M)"),
        ("larger:0", "'larger:0' needs a size: bytes, K or M (e.g. 500, 2kb, 1.5M)"),
    ])
    func searchesOutsideTheSubsetAreRefusedByName(_ query: String, _ message: String) {
        #expect(throws: MailpitSearch.Failure.self) { try MailpitSearch(parsing: query) }
        do {
            _ = try MailpitSearch(parsing: query)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func searchTermsParse() throws {
        let search = try MailpitSearch(parsing: "john -from:admin@example.com subject:\"two words\" is:unread")
        #expect(search.terms.map(\.field) == [.any, .from, .subject, .isUnread])
        #expect(search.terms.map(\.value) == ["john", "admin@example.com", "two words", ""])
        #expect(search.terms.map(\.negated) == [false, true, false, false])
        let more = try MailpitSearch(parsing: "message-id:<w1@shop.example> larger:1.5M -smaller:500K has:attachments")
        #expect(more.terms.map(\.field) == [.messageID, .larger, .smaller, .hasAttachment])
        #expect(more.terms[0].value == "w1@shop.example", "Mailpit drops the angle brackets")
        #expect(more.terms[1].bytes == 1_572_864 && more.terms[2].bytes == 512_000 && more.terms[2].negated)
    }

    /// Mailpit's `sizeToBytes` (internal/storage/search.go): K/KB and M/MB in any case, a fraction, one space.
    @Test func sizesReadAsMailpitReadsThem() {
        #expect(MailpitSearch.bytes("500") == 500 && MailpitSearch.bytes("2kb") == 2048)
        #expect(MailpitSearch.bytes("1.5m") == 1_572_864 && MailpitSearch.bytes("3 mb") == 3_145_728)
        for bad in ["", "k", "1.5.2m", "-1k", "1g", "1e3", "١٢"] { #expect(MailpitSearch.bytes(bad) == nil, "\(bad)") }
    }
}
