import EventLoop
import Testing

@testable import HTTP

@Suite struct SerializationTests {
    func text(_ response: HTTPResponse, includeBody: Bool = true, close: Bool = false, keepAliveHeader: Bool = false)
        -> String
    {
        var out: [UInt8] = []
        response.serialize(into: &out, includeBody: includeBody, close: close, keepAliveHeader: keepAliveHeader)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func statusLineFieldsLengthAndBody() {
        let response = HTTPResponse(
            status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Array("{}".utf8))
        #expect(text(response) == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
        #expect(text(response, close: true).hasSuffix("Content-Length: 2\r\nConnection: close\r\n\r\n{}"))
    }

    @Test func headKeepsLengthButDropsBody() {
        let response = HTTPResponse(status: 404, body: Array("missing".utf8))
        #expect(text(response, includeBody: false) == "HTTP/1.1 404 Not Found\r\nContent-Length: 7\r\n\r\n")
    }

    @Test func serverOwnsFramingAndStripsLineBreaks() {
        let response = HTTPResponse(
            status: 302,
            headers: HTTPHeaders([
                ("Location", "/a\r\nSet-Cookie: x=1"), ("content-length", "99"), ("Transfer-Encoding", "chunked"),
            ]))
        #expect(text(response) == "HTTP/1.1 302 Found\r\nLocation: /aSet-Cookie: x=1\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func noContentHasNoLength() {
        #expect(text(HTTPResponse(status: 204, body: [1, 2])) == "HTTP/1.1 204 No Content\r\n\r\n")
        #expect(
            text(HTTPResponse(status: 599), keepAliveHeader: true)
                == "HTTP/1.1 599 Unknown\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n")
    }

    @Test func clientURLParsing() throws {
        let a = try HTTPClient.parse(url: "http://127.0.0.1:8080/auth/keys?x=1#frag")
        #expect(a.host == "127.0.0.1" && a.port == 8080 && a.target == "/auth/keys?x=1")
        let b = try HTTPClient.parse(url: "http://[::1]/")
        #expect(b.host == "::1" && b.port == 80 && b.target == "/")
        let c = try HTTPClient.parse(url: "http://localhost?q")
        #expect(c.host == "localhost" && c.target == "/?q")
        #expect(throws: ClientError.self) { try HTTPClient.parse(url: "https://x/") }
        #expect(throws: ClientError.self) { try HTTPClient.parse(url: "http://x:99999/") }
        #expect(throws: ClientError.self) { try HTTPClient.parse(url: "http://:80/") }
    }
}
