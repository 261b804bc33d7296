import EventLoop
import HTTP
import Testing

/// Each `HTTPResponse.Delivery` fault, observed from the client side.
@Suite struct DeliveryFaultTests {
    static let body = Array(String(repeating: "0123456789", count: 100).utf8)

    func serve(_ delivery: HTTPResponse.Delivery, _ check: (ClientConnection) throws -> Void) throws {
        try withServer(respond: { _ in HTTPResponse(status: 200, body: Self.body, delivery: delivery) }) { server in
            let connection = try connect(server)
            try connection.write("GET /fault HTTP/1.1\r\nHost: x\r\n\r\n")
            try check(connection)
        }
    }

    @Test func resetIsSeenAsConnectionReset() throws {
        try serve(.reset) { connection throws in
            do {
                let bytes = try connection.readToEnd()
                Issue.record("expected ECONNRESET, got \(bytes.count) bytes and EOF")
            } catch let error as ClientError {
                #expect(error.kind == .connectionReset)
            }
        }
    }

    @Test func closeWithoutResponseIsCleanEOF() throws {
        try serve(.closeWithoutResponse) { connection throws in
            #expect(try connection.readToEnd().isEmpty)
        }
    }

    @Test func truncatedBodyEndsBeforeContentLength() throws {
        try serve(.truncatedBody) { connection throws in
            let bytes = try connection.readToEnd()
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(text.contains("Content-Length: \(Self.body.count)\r\n"))
            let headEnd = try #require(text.utf8.firstRange(of: "\r\n\r\n".utf8))
            let received = text.utf8.distance(from: headEnd.upperBound, to: text.utf8.endIndex)
            #expect(received == Self.body.count / 2)
        }
    }

    @Test func delayedResponseArrivesComplete() throws {
        try serve(.delayed(milliseconds: 100)) { connection throws in
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.body == Self.body)
        }
    }

    @Test func slowBodyArrivesCompleteAndKeepsTheConnection() throws {
        try withServer(respond: { request in
            HTTPResponse(
                status: 200, body: Array("\(request.target)-".utf8) + Self.body.prefix(200),
                delivery: .slowBody(chunkSize: 64, intervalMilliseconds: 5))
        }) { server in
            let connection = try connect(server)
            for target in ["/one", "/two"] {
                let response = try connection.send(HTTPClientRequest(target: target))
                #expect(response.status == 200)
                #expect(response.body == Array("\(target)-".utf8) + Self.body.prefix(200))
            }
        }
    }

    @Test func clientThatNeverReadsDoesNotBlockTheLoop() throws {
        let big = [UInt8](repeating: 0x61, count: 8 << 20)
        try withServer(respond: { request in
            request.target == "/big" ? HTTPResponse(status: 200, body: big) : echoResponder(request)
        }) { server in
            let stuck = try connect(server)
            try stuck.write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            let other = try connect(server, timeout: 2_000)
            #expect(try other.send(HTTPClientRequest(target: "/small")).bodyText == "GET /small 0")
            // The stuck client can still read everything afterwards.
            let response = try stuck.readResponse()
            #expect(response.body.count == big.count)
        }
    }
}
