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

    /// Prepared header sets (`HTTPHeaders.prepared()`) serialize exactly as the same fields built per
    /// response, including sanitizing and the server's framing, before and after later changes.
    @Test func preparedFieldsSerializeAsBuiltOnes() {
        let sets: [[(String, String)]] = [
            [], [("Content-Type", "application/json;charset=UTF-8"), ("Cache-Control", "no-store")],
            [("Location", "/a\r\nSet-Cookie: x=1\u{0}"), ("content-length", "99"), ("X", "")],
            [("Transfer-Encoding", "chunked"), ("Connection", "keep-alive"), ("Server", "Apple")],
        ]
        for fields in sets {
            let plain = HTTPHeaders(fields)
            let prepared = plain.prepared()
            #expect(prepared == plain)
            #expect(prepared.isUnchanged(prepared) && !plain.isUnchanged(plain))
            #expect(
                text(HTTPResponse(status: 200, headers: prepared)) == text(HTTPResponse(status: 200, headers: plain)))
            var addedTo = prepared
            addedTo.add("Server", "Apple\r\n")
            var addedToPlain = plain
            addedToPlain.add("Server", "Apple\r\n")
            #expect(!addedTo.isUnchanged(prepared))
            #expect(
                text(HTTPResponse(status: 200, headers: addedTo))
                    == text(HTTPResponse(status: 200, headers: addedToPlain)))
            for name in ["Content-Type", "Location", "Server"] {
                var changed = prepared
                changed.set(name, "changed")
                var changedPlain = plain
                changedPlain.set(name, "changed")
                #expect(!changed.isUnchanged(prepared))
                #expect(
                    text(HTTPResponse(status: 200, headers: changed))
                        == text(HTTPResponse(status: 200, headers: changedPlain)))
                changed.remove(name)
                changedPlain.remove(name)
                #expect(
                    text(HTTPResponse(status: 200, headers: changed))
                        == text(HTTPResponse(status: 200, headers: changedPlain)))
            }
        }
    }

    /// A prepared response (`HTTPResponse.prepared()`) serializes exactly as the same response built per
    /// exchange, in every framing (HEAD, close, HTTP/1.0 keep-alive, 204), and any change drops its bytes.
    @Test func preparedResponsesSerializeAsBuiltOnes() {
        let responses = [
            HTTPResponse(
                status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]).prepared(),
                body: Array(#"{"keys":[]}"#.utf8)),
            HTTPResponse(status: 204, headers: HTTPHeaders([("X", "1")]), body: [1, 2]),
            HTTPResponse(status: 404, body: Array("missing".utf8)),
            HTTPResponse(status: 302, headers: HTTPHeaders([("Location", "/a\r\nb"), ("Content-Length", "9")])),
        ]
        for plain in responses {
            let prepared = plain.prepared()
            #expect(prepared.isPrepared && !plain.isPrepared)
            for (includeBody, close, keepAlive) in [
                (true, false, false), (false, false, false), (true, true, false), (true, false, true),
            ] {
                #expect(
                    text(prepared, includeBody: includeBody, close: close, keepAliveHeader: keepAlive)
                        == text(plain, includeBody: includeBody, close: close, keepAliveHeader: keepAlive))
            }
            var changed = prepared
            changed.body.append(UInt8(ascii: "!"))
            var changedPlain = plain
            changedPlain.body.append(UInt8(ascii: "!"))
            #expect(!changed.isPrepared && text(changed) == text(changedPlain))
            changed = prepared
            changed.headers.add("Server", "Apple")
            #expect(!changed.isPrepared && text(changed).contains("Server: Apple\r\n"))
            changed = prepared
            changed.status = .serviceUnavailable
            #expect(!changed.isPrepared && text(changed).hasPrefix("HTTP/1.1 503 "))
            changed = prepared
            changed.delivery = .truncatedBody
            changed.logFields["x"] = "y"
            #expect(changed.isPrepared)
        }
    }

    @Test func contentLengthDigits() {
        for value in [0, 1, 9, 10, 99, 100, 1449, 65_536, 999_999_999, Int.max] {
            var out: [UInt8] = [UInt8(ascii: "x")]
            HTTPResponse.appendDecimal(value, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == "x\(value)")
        }
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
