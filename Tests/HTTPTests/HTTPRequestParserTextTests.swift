import Testing

@testable import HTTP

/// The parser's text fast paths (method literals, path and query sliced from bytes, small-string
/// construction, the token bit set) give exactly what the general code gives.
@Suite struct HTTPRequestParserTextTests {
    func parse(_ head: [UInt8]) -> HTTPRequest? {
        var parser = HTTPRequestParser()
        parser.append(head)
        return parser.next().request
    }

    @Test(arguments: [
        "/", "/auth/keys", "/a?b=1", "/a?", "/a?b?c", "/a??", "/?x", "/long/path/over/fifteen/bytes?q=1&r=2",
    ])
    func pathAndQueryMatchTheGeneralInitializer(target: String) throws {
        let request = try #require(parse(Array("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n".utf8)))
        let general = HTTPRequest(method: "GET", target: target)
        #expect(request.target == target)
        #expect(request.path == general.path)
        #expect(request.query == general.query)
    }

    @Test(arguments: ["GET", "POST", "HEAD", "PUT", "get", "GETS", "POS", "M-SEARCH", "VERYLONGMETHODNAME"])
    func methodIsKeptAsSent(method: String) throws {
        let request = try #require(parse(Array("\(method) / HTTP/1.1\r\nHost: a\r\n\r\n".utf8)))
        #expect(request.method.rawValue == method)
    }

    @Test(arguments: [
        [UInt8](), Array("x".utf8), Array("café".utf8), [0xFF, 0x41], [0x41, 0xC3], [0x80],
        Array("sixteen-bytes-xx".utf8) + [0xE9], Array(repeating: 0x61, count: 15) + [0xC3, 0xA9],
    ])
    func fieldValuesDecodeLikeStringDecoding(value: [UInt8]) throws {
        let head = Array("GET / HTTP/1.1\r\nHost: a\r\nX-V: ".utf8) + value + Array("\r\n\r\n".utf8)
        let request = try #require(parse(head))
        #expect(request.headers["x-v"] == String(decoding: value, as: UTF8.self))
    }

    @Test func tokenBitSetIsTheTcharOfRFC9110() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in 0...255 {
            #expect(ASCII.isToken(UInt8(byte)) == tchar.contains(UInt8(byte)), "byte \(byte)")
        }
    }

    /// The one-pass head scan (end of head and bare LF together) decides the same in every chunking as
    /// for the whole head at once, including terminators and CRs split across chunks.
    @Test(arguments: [
        "GET / HTTP/1.1\r\nHost: a\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\n\n", "GET / HTTP/1.1\r\nHost: a\n\r\n",
        "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nX: \r\r\n\r\n", "\r\nGET / HTTP/1.1\r\n\r\n",
    ])
    func headScanIsIndependentOfChunking(head: String) {
        let whole = parseAll(Array(head.utf8), chunks: [head.utf8.count])
        for chunk in [1, 2, 3, 5] {
            let split = parseAll(Array(head.utf8), chunks: [chunk])
            #expect(split.map(\.rejectStatus) == whole.map(\.rejectStatus), "chunk \(chunk)")
            #expect(split.map(\.request?.target) == whole.map(\.request?.target), "chunk \(chunk)")
        }
    }

    @Test(arguments: ["Host", "host", "HOST", "hOsT", "Content-Type", "content-type", "X-Custom", "Accept-Encodinx"])
    func fieldNamesKeepTheCaseSent(name: String) throws {
        let request = try #require(parse(Array("GET / HTTP/1.0\r\n\(name): v\r\n\r\n".utf8)))
        #expect(request.headers.fields.map(\.name) == [name])
    }

    /// Consumed bytes are dropped once they fill 4 KiB: a long keep-alive connection's buffer stays small.
    @Test func consumedBytesAreDroppedOnceTheyFillFourKiB() {
        var parser = HTTPRequestParser()
        let request = Array("GET /auth/keys HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        var largest = 0
        for _ in 0..<1000 {
            parser.append(request)
            #expect(parser.next().request?.target == "/auth/keys")
            largest = max(largest, parser.buffer.count)
        }
        #expect(largest <= 4096 + request.count)
        #expect(largest >= 4096)
        #expect(!parser.hasPartialRequest)
    }

    /// Heads are parsed into one reused field list: a request kept past the next one (a parked answer)
    /// keeps its own fields, and the next request has only its own.
    @Test func aKeptRequestKeepsItsFieldsWhenTheNextIsParsed() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("GET /a HTTP/1.1\r\nHost: a\r\nX-One: 1\r\nX-Two: 2\r\n\r\n".utf8))
        let kept = try #require(parser.next().request)
        for round in 0..<3 {
            parser.append(Array("GET /b HTTP/1.1\r\nHost: b\r\nX-Round: \(round)\r\n\r\n".utf8))
            let next = try #require(parser.next().request)
            #expect(next.headers.fields.map(\.name) == ["Host", "X-Round"])
            #expect(next.headers["X-Round"] == "\(round)" && next.headers["X-One"] == nil)
        }
        #expect(kept.headers.fields.map(\.value) == ["a", "1", "2"])
    }
}
