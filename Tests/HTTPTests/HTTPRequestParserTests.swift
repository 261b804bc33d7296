import SIWACore
import Testing

@testable import HTTP

@Suite struct HTTPRequestParserTests {
    let post =
        "POST /auth/token?x=1 HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 11\r\n\r\ncode=abc&x="
    let get = "GET /auth/keys HTTP/1.1\r\nHost: a\r\nAccept: */*\r\n\r\n"

    @Test func parsesRequestLineHeadersAndBody() throws {
        var parser = HTTPRequestParser(remoteAddress: "1.2.3.4:5")
        parser.append(Array(post.utf8))
        let request = try #require(parser.next().request)
        #expect(request.method == "POST")
        #expect(request.target == "/auth/token?x=1")
        #expect(request.path == "/auth/token")
        #expect(request.query == "x=1")
        #expect(request.headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(request.body == Array("code=abc&x=".utf8))
        #expect(request.remoteAddress == "1.2.3.4:5")
        #expect(request.version == .http11)
        #expect(request.keepAlive)
        if case .needMoreData = parser.next() {} else { Issue.record("expected needMoreData") }
    }

    @Test func byteByByteGivesTheSameRequests() {
        let bytes = Array((post + get + post).utf8)
        let results = parseAll(bytes, chunks: [1])
        #expect(results.count == 3)
        #expect(results.compactMap(\.request).map(\.method) == ["POST", "GET", "POST"])
        #expect(results[2].request?.body == Array("code=abc&x=".utf8))
    }

    @Test(arguments: [1, 2, 3, 42, 4711])
    func randomChunkingsGiveTheSameRequests(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let bytes = Array((get + post + get + post + get).utf8)
        let chunks = (0..<64).map { _ in Int.random(in: 1...40, using: &generator) }
        let results = parseAll(bytes, chunks: chunks)
        #expect(results.compactMap(\.request).map(\.method) == ["GET", "POST", "GET", "POST", "GET"])
        #expect(results.compactMap(\.request).map(\.body.count) == [0, 11, 0, 11, 0])
    }

    @Test func pipelinedRequestsInOneChunkComeOutInOrder() {
        var parser = HTTPRequestParser()
        parser.append(
            Array("GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\nGET /3 HTTP/1.1\r\nHo".utf8))
        let first = parser.next().request?.target
        let second = parser.next().request?.target
        #expect(first == "/1")
        #expect(second == "/2")
        if case .needMoreData = parser.next() {} else { Issue.record("expected needMoreData") }
        #expect(parser.hasPartialRequest)
        parser.append(Array("st: a\r\n\r\n".utf8))
        let third = parser.next().request?.target
        #expect(third == "/3")
        #expect(!parser.hasPartialRequest)
    }

    @Test func keepAliveSemantics() throws {
        func keepAlive(_ head: String) throws -> Bool {
            var parser = HTTPRequestParser()
            parser.append(Array(head.utf8))
            return try #require(parser.next().request).keepAlive
        }
        #expect(try keepAlive("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(try !keepAlive("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"))
        #expect(try !keepAlive("GET / HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, CLOSE\r\n\r\n"))
        #expect(try !keepAlive("GET / HTTP/1.0\r\n\r\n"))
        #expect(try keepAlive("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"))
    }

    @Test func expectContinueIsSignalledOnceBeforeTheBody() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("POST /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n".utf8))
        if case .needMoreData = parser.next() {} else { Issue.record("expected needMoreData") }
        #expect(parser.isReadingBody)
        let firstAsk = parser.takeContinueRequest()
        let secondAsk = parser.takeContinueRequest()
        #expect(firstAsk)
        #expect(!secondAsk)
        parser.append(Array("abc".utf8))
        let result = parser.next()
        #expect(try #require(result.request).body == Array("abc".utf8))
    }

    @Test func leadingEmptyLineIsIgnoredAndEqualDuplicateLengthsAreAccepted() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("\r\nPOST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 02\r\n\r\nok".utf8))
        let result = parser.next()
        #expect(try #require(result.request).body == Array("ok".utf8))
    }

    @Test func headerValuesAreTrimmedAndKeepTheirOrder() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("GET / HTTP/1.1\r\nHost: a\r\nX-A:  1 \t\r\nx-a: 2\r\nEmpty:\r\n\r\n".utf8))
        let request = try #require(parser.next().request)
        #expect(request.headers.values(for: "X-A") == ["1", "2"])
        #expect(request.headers["empty"] == "")
        #expect(request.headers.fields.map(\.name) == ["Host", "X-A", "x-a", "Empty"])
    }
}
