import Testing

@testable import HTTP

@Suite struct HTTPRequestParserRejectTests {
    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\n folded\r\n\r\n", 400, "obs-fold"),
        ("GET / HTTP/1.1\r\nHost: a\r\nX : 1\r\n\r\n", 400, "space before colon"),
        ("GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", 400, "header without colon"),
        ("GET / HTTP/1.1\r\nHost: a\r\n: v\r\n\r\n", 400, "empty field name"),
        ("GET / HTTP/1.1\r\nHost: a\r\nX: a\0b\r\n\r\n", 400, "NUL in value"),
        ("GET / HTTP/1.1\r\nHost: a\r\nX\0: 1\r\n\r\n", 400, "NUL in name"),
        ("GET /a\0 HTTP/1.1\r\nHost: a\r\n\r\n", 400, "NUL in target"),
        ("GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", 400, "bare CR in value"),
        // Found by Tests/Adversarial: a head ended by bare LFs used to wait for the header timeout.
        ("GET / HTTP/1.1\nHost: a\n\n", 400, "bare LF line endings"),
        ("GET / HTTP/1.1\r\nHost: a\nX: b\r\n\r\n", 400, "bare LF inside the head"),
        ("\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", 400, "bare LF before the request line"),
        ("G(T / HTTP/1.1\r\nHost: a\r\n\r\n", 400, "bad method character"),
        (" GET / HTTP/1.1\r\nHost: a\r\n\r\n", 400, "missing method"),
        ("GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400, "double space"),
        ("GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\n", 400, "absolute-form target"),
        ("GET * HTTP/1.1\r\nHost: a\r\n\r\n", 400, "asterisk target"),
        ("GET /a b HTTP/1.1\r\nHost: a\r\n\r\n", 400, "space in target"),
        ("GET /\u{e9} HTTP/1.1\r\nHost: a\r\n\r\n", 400, "non-ASCII target"),
        ("GET / HTTX/1.1\r\nHost: a\r\n\r\n", 400, "bad protocol name"),
        ("GET / HTTP/1.1 \r\nHost: a\r\n\r\n", 400, "trailing space in request line"),
        ("GET /\r\nHost: a\r\n\r\n", 400, "HTTP/0.9 style"),
        ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505, "HTTP/2.0"),
        ("GET / HTTP/1.2\r\nHost: a\r\n\r\n", 505, "HTTP/1.2"),
        ("GET / HTTP/1.1\r\n\r\n", 400, "missing Host"),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "two Host fields"),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 400, "conflicting CL"),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 5\r\n\r\n", 400, "CL list"),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400, "negative CL"),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +1\r\n\r\n", 400, "signed CL"),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n", 400, "empty CL"),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x10\r\n\r\n", 400, "hex CL"),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", 411, "TE without CL"),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", 400, "TE and CL"),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400, "CL and TE"),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1048577\r\n\r\n", 413, "body over 1 MiB"),
        (
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1234567890123456789012345678901234567890\r\n\r\n", 413,
            "40 digits"
        ),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n", 413, "past Int.max"),
        ("POST / HTTP/1.1\r\nHost: a\r\nExpect: something\r\nContent-Length: 1\r\n\r\n", 417, "unknown expectation"),
    ])
    func rejects(request: String, status: Int, label: String) {
        #expect(rejectStatus(request) == status, "\(label)")
    }

    @Test func headerBlockOverLimitIs431EvenWithoutTerminator() {
        let big = "GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + String(repeating: "a", count: 17 * 1024)
        #expect(rejectStatus(big) == 431)
        #expect(rejectStatus(big + "\r\n\r\n") == 431)
        // Just under the limit still parses.
        let fits = "GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + String(repeating: "a", count: 16 * 1024 - 100) + "\r\n\r\n"
        var parser = HTTPRequestParser()
        parser.append(Array(fits.utf8))
        let result = parser.next()
        #expect(result.request != nil)
    }

    @Test func bodyLimitFollowsConfiguration() {
        let limits = HTTPRequestParser.Limits(maxHeaderBytes: 1024, maxBodyBytes: 10)
        #expect(rejectStatus("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n", limits: limits) == 413)
        #expect(rejectStatus("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n", limits: limits) == nil)
    }

    @Test func rejectIsTerminalAndDripFeedingGivesTheSameStatus() {
        let bad = Array("GET / HTTP/1.1\r\nHost: a\r\nX : 1\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        let results = parseAll(bad, chunks: [1])
        #expect(results.count == 1)
        #expect(results.first?.rejectStatus == 400)
        var parser = HTTPRequestParser()
        parser.append(bad)
        let first = parser.next().rejectStatus
        let again = parser.next().rejectStatus
        #expect(first == 400)
        #expect(again == 400)
    }

    /// Regression (Tests/Adversarial): bare-LF heads are refused as soon as the LF arrives, in any
    /// chunking, instead of waiting for a CRLF CRLF that never comes.
    @Test(arguments: [1, 2, 3, 7])
    func bareLineFeedIsRejectedWhileDripFed(chunk: Int) {
        let results = parseAll(Array("GET / HTTP/1.1\nHost: a\n\n".utf8), chunks: [chunk])
        #expect(results.count == 1)
        #expect(results.first?.rejectStatus == 400)
    }

    /// LF bytes in a body, and in a pipelined request after it, are not head bytes.
    @Test func lineFeedsInBodiesAreNotBareLineFeeds() {
        let text = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\na\nbGET / HTTP/1.1\r\nHost: a\r\n\r\n"
        for chunk in [1, 4, 100] {
            let results = parseAll(Array(text.utf8), chunks: [chunk])
            #expect(results.count == 2, "chunk \(chunk)")
            #expect(results.first?.request?.body == Array("a\nb".utf8), "chunk \(chunk)")
            #expect(results.last?.request?.method == "GET", "chunk \(chunk)")
        }
    }
}
