import HTTP
import JSON
import SIWACore
import SIWATestSupport
import Testing

@testable import SIWAServer

/// What the dashboard's mail viewer reads (docs/relay-mail.md, "The viewer"): the HTML part behind a
/// policy that fetches and runs nothing, parts downloaded by number, headers decoded, search over
/// `/mock/mail`, delete one — in-process and over a live socket.
@Suite struct MailViewerTests {
    static let bob = "k7x2m9q4ab@privaterelay.appleid.com"
    /// Everything a hostile message may try: a script, a remote image and style, a form, a refresh.
    static let hostileHTML =
        "<p>Your receipt</p><script>document.title='pwned'</script><img src=\"http://127.0.0.1:9/beacon\">"
        + "<link rel=stylesheet href=\"http://127.0.0.1:9/style.css\">"
        + "<form action=\"http://127.0.0.1:9/form\"><input type=submit></form>"
        + "<meta http-equiv=\"refresh\" content=\"0;url=http://127.0.0.1:9/refresh\">"

    static let receipt = """
        From: =?utf-8?q?Caf=C3=A9_Shop?= <hello@shop.example>\r
        To: Bob <\(bob)>\r
        Subject: =?utf-8?b?UmXDp3UgbsKwNDI=?=\r
        MIME-Version: 1.0\r
        Content-Type: multipart/mixed; boundary="outer"\r
        \r
        --outer\r
        Content-Type: multipart/alternative; boundary="inner"\r
        \r
        --inner\r
        Content-Type: text/plain; charset=utf-8\r
        \r
        Your receipt for order 42\r
        --inner\r
        Content-Type: text/html; charset=utf-8\r
        \r
        \(hostileHTML)\r
        --inner--\r
        --outer\r
        Content-Type: application/pdf\r
        Content-Disposition: attachment; filename*=UTF-8''re%C3%A7u.pdf\r
        Content-Transfer-Encoding: base64\r
        \r
        JVBERi0xLjQK\r
        --outer\r
        Content-Type: image/png\r
        Content-Disposition: inline\r
        Content-ID: <logo@shop>\r
        Content-Transfer-Encoding: base64\r
        \r
        iVBORw0KGgo=\r
        --outer--\r

        """

    func send(_ server: MockServer) {
        let plain = "From: hello@shop.example\r\nTo: \(Self.bob)\r\nSubject: Welcome\r\n\r\nHello Bob\r\n"
        let text =
            "EHLO test\r\nMAIL FROM:<hello@shop.example>\r\nRCPT TO:<\(Self.bob)>\r\nDATA\r\n\(Self.receipt).\r\n"
            + "MAIL FROM:<hello@shop.example>\r\nRCPT TO:<\(Self.bob)>\r\nDATA\r\n\(plain).\r\n"
        let session = RelaySMTPService(server: server).makeSession(remoteAddress: "127.0.0.1:5")
        _ = session.open()
        Array(text.utf8).withUnsafeBytes { _ = session.receive($0) }
    }

    /// A policy's directives by name, each with its source list.
    static func directives(_ policy: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for directive in policy.split(separator: ";") {
            let words = directive.split(separator: " ").map(String.init)
            if let name = words.first { result[name] = Array(words.dropFirst()) }
        }
        return result
    }

    @Test(arguments: Transport.allCases) func theHTMLPartCanFetchAndRunNothing(_ transport: Transport) throws {
        try ControlHarness.run(transport, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            send(harness.server)
            let frame = try harness.call(.get, "/mock/mail/m1/html")
            #expect(frame.status == 200 && frame.headers["Content-Type"] == "text/html;charset=UTF-8")
            #expect(frame.text.contains(Self.hostileHTML), "served as sent: the policy, not a filter, keeps it inert")
            let policy = try #require(frame.headers["Content-Security-Policy"])
            let directives = Self.directives(policy)
            #expect(directives["default-src"] == ["'none'"], "no fetch of any kind but what is listed")
            #expect(directives["img-src"] == ["data:"] && directives["style-src"] == ["'unsafe-inline'"])
            #expect(directives["script-src"] == nil && directives["connect-src"] == nil, "scripts fall back to 'none'")
            #expect(directives["form-action"] == ["'none'"] && directives["base-uri"] == ["'none'"])
            #expect(directives["sandbox"] == [], "sandboxed with no allowance: no script, form, popup or refresh")
            #expect(directives["frame-ancestors"] == ["'self'"])
            #expect(!policy.contains("http") && !policy.contains("*"), "no remote source anywhere")
            #expect(frame.headers["X-Content-Type-Options"] == "nosniff")

            let page = try harness.send(RequestBuilder.get("/mock/ui"))
            let pagePolicy = Self.directives(try #require(page.headers["Content-Security-Policy"]))
            #expect(pagePolicy["frame-src"] == ["'self'"] && pagePolicy["frame-ancestors"] == ["'none'"])

            expectControlError(try harness.call(.get, "/mock/mail/m2/html"), 404, field: "id")
            expectControlError(try harness.call(.get, "/mock/mail/m9/html"), 404, field: "id")
        }
    }

    @Test(arguments: Transport.allCases) func partsHeadersAndListShowTheMessageAsRead(_ transport: Transport) throws {
        try ControlHarness.run(transport, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            send(harness.server)
            let list = try #require(try harness.call(.get, "/mock/mail").json?["messages"]?.arrayValue)
            let first = try #require(list.first?.objectValue)
            #expect(first["subject"] == .string("Reçu n°42") && first["from_name"] == .string("Café Shop"))
            #expect(first["attachments"] == .int(1), "the inline image is no attachment")
            #expect(list.last?.objectValue?["attachments"] == .int(0))

            let detail = try #require(try harness.call(.get, "/mock/mail/m1").json)
            let headers = try #require(detail["headers"]?.arrayValue).compactMap(\.objectValue)
            let subject = try #require(headers.first { $0["name"] == .string("Subject") })
            #expect(
                subject["decoded"] == .string("Reçu n°42")
                    && subject["value"] == .string("=?utf-8?b?UmXDp3UgbsKwNDI=?="))
            let from = try #require(headers.first { $0["name"] == .string("From") })
            #expect(from["decoded"]?.stringValue?.hasPrefix("Café Shop <hello_at_shop_example_") == true)
            let parts = try #require(detail["attachments"]?.arrayValue).compactMap(\.objectValue)
            #expect(parts.map { $0["part"] } == [.string("2"), .string("3")])
            #expect(parts[0]["filename"] == .string("reçu.pdf") && parts[0]["size"] == .int(9))
            #expect(parts[0]["url"] == .string("/mock/mail/m1/parts/2") && parts[0]["inline"] == .bool(false))
            #expect(parts[1]["content_id"] == .string("logo@shop") && parts[1]["inline"] == .bool(true))

            let pdf = try harness.call(.get, "/mock/mail/m1/parts/2")
            #expect(pdf.status == 200 && pdf.body == Array("%PDF-1.4\n".utf8))
            // Served as bytes, never as the declared type (issue 36 finding 9); the JSON keeps that.
            #expect(pdf.headers["Content-Type"] == "application/octet-stream")
            #expect(parts[0]["content_type"] == .string("application/pdf"))
            #expect(
                pdf.headers["Content-Disposition"]
                    == "attachment; filename=\"re_u.pdf\"; filename*=UTF-8''re%C3%A7u.pdf")
            #expect(pdf.headers["Content-Security-Policy"] == "default-src 'none'; sandbox")
            let logo = try harness.call(.get, "/mock/mail/m1/parts/3")
            #expect(logo.body == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            #expect(logo.headers["Content-Disposition"]?.hasPrefix("attachment; filename=\"logo@shop\"") == true)
            for bad in ["9", "1.1", "0", "x"] {
                expectControlError(try harness.call(.get, "/mock/mail/m1/parts/\(bad)"), 404, field: "part")
            }
            expectControlError(try harness.call(.get, "/mock/mail/m9/parts/2"), 404, field: "id")

            // Mailpit's Attachments and Inline, and its part route, serve the same parts.
            let mailpit = try #require(try harness.call(.get, "/api/v1/message/m1").json)
            let attachment = try #require(mailpit["Attachments"]?.arrayValue?.first?.objectValue)
            #expect(mailpit["Attachments"]?.arrayValue?.count == 1 && mailpit["Inline"]?.arrayValue?.count == 1)
            #expect(attachment["PartID"] == .string("2") && attachment["FileName"] == .string("reçu.pdf"))
            #expect(attachment["ContentType"] == .string("application/pdf") && attachment["Size"] == .int(9))
            #expect(mailpit["Inline"]?.arrayValue?.first?.objectValue?["ContentID"] == .string("logo@shop"))
            #expect(try harness.call(.get, "/api/v1/message/m1/part/2").body == pdf.body)
            expectControlError(try harness.call(.get, "/api/v1/message/m1/part/7"), 404, field: "part")
            let summary = try #require(try harness.call(.get, "/api/v1/messages").json?["messages"]?.arrayValue)
            #expect(summary.last?.objectValue?["Attachments"] == .int(1))
        }
    }

    @Test(arguments: Transport.allCases) func searchNarrowsTheListAndDeleteRemovesOne(_ transport: Transport) throws {
        try ControlHarness.run(transport, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            send(harness.server)
            func ids(_ query: String) throws -> [String] {
                let response = try harness.call(.get, "/mock/mail?query=\(query)")
                #expect(response.status == 200, "\(query): \(response.text)")
                return response.json?["messages"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } ?? []
            }
            #expect(try ids("") == ["m1", "m2"], "an empty search is no filter")
            #expect(try ids("order%2042") == ["m1"], "words in the body")
            #expect(try ids("subject:re%C3%A7u") == ["m1"], "the decoded subject")
            #expect(try ids("from:caf%C3%A9") == ["m1"], "the decoded display name")
            #expect(try ids("to:k7x2m9q4ab") == ["m1", "m2"])
            #expect(try ids("has:attachment") == ["m1"] && (try ids("-has:attachment")) == ["m2"])
            #expect(try ids("bob%20welcome") == ["m2"] && (try ids("nothing-like-this")) == [])
            #expect(try ids("subject:welcome&status=rejected") == [], "with the other filters")
            expectControlError(try harness.call(.get, "/mock/mail?query=tag:x"), 400, field: "query")

            let deleted = try harness.call(.delete, "/mock/mail/m1")
            #expect(deleted.status == 200 && deleted.json?["cleared"] == .int(1))
            expectControlError(try harness.call(.delete, "/mock/mail/m1"), 404, field: "id")
            #expect(try ids("") == ["m2"])
        }
    }
}
