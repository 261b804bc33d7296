import EventLoop
import Glibc
import HTTP
import Synchronization
import Testing

/// The real server on a loopback port, driven by `ClientConnection`.
@Suite struct LiveServerTests {
    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        let records = Mutex<[HTTPExchangeRecord]>([])
        try withServer(loops: 2, onExchange: { record in records.withLock { $0.append(record) } }) { server in
            let connection = try connect(server)
            for i in 0..<5 {
                let response = try connection.send(
                    HTTPClientRequest(method: "POST", target: "/n/\(i)", body: [1, 2, 3]))
                #expect(response.status == 200)
                #expect(response.bodyText == "POST /n/\(i) 3")
                #expect(response.headers["Connection"] == nil)
            }
        }
        let logged = records.withLock { $0 }
        #expect(logged.map(\.target) == (0..<5).map { "/n/\($0)" })
        #expect(
            logged.allSatisfy {
                $0.status == 200 && $0.remoteAddress.hasPrefix("127.0.0.1:") && $0.durationMicroseconds >= 0
            })
    }

    @Test func oneShotClientAndURL() throws {
        try withServer { server in
            let response = try HTTPClient.send(
                HTTPClientRequest(), to: "http://127.0.0.1:\(server.port)/health?x=1", timeoutMilliseconds: 5_000)
            #expect(response.status == 200)
            #expect(response.bodyText == "GET /health?x=1 0")
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        try withServer { server in
            let connection = try connect(server)
            var batch = ""
            for i in 0..<20 { batch += "GET /p\(i) HTTP/1.1\r\nHost: x\r\n\r\n" }
            batch += "POST /last HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi"
            try connection.write(batch)
            for i in 0..<20 {
                #expect(try connection.readResponse().bodyText == "GET /p\(i) 0")
            }
            let last = try connection.readResponse()
            #expect(last.bodyText == "POST /last 2")
            #expect(last.headers["Connection"] == "close")
            #expect(try connection.readToEnd().isEmpty)
        }
    }

    @Test func expectContinueGetsInterimResponseBeforeBody() throws {
        try withServer { server in
            let connection = try connect(server)
            try connection.write("POST /up HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            let interim = try connection.readResponse()
            #expect(interim.status == 100)
            try connection.write("data")
            let final = try connection.readResponse()
            #expect(final.status == 200)
            #expect(final.bodyText == "POST /up 4")
        }
    }

    @Test func headGetsLengthWithoutBody() throws {
        try withServer { server in
            let connection = try connect(server)
            let head = try connection.send(HTTPClientRequest(method: "HEAD", target: "/abc"))
            #expect(head.status == 200)
            #expect(head.headers["Content-Length"] == "\("HEAD /abc 0".utf8.count)")
            #expect(head.body.isEmpty)
            // The connection is still in sync: no stray body bytes precede the next response.
            #expect(try connection.send(HTTPClientRequest(target: "/next")).bodyText == "GET /next 0")
        }
    }

    @Test func http10ClosesUnlessKeepAlive() throws {
        try withServer { server in
            let a = try connect(server)
            try a.write("GET /old HTTP/1.0\r\n\r\n")
            let response = try a.readResponse()
            #expect(response.headers["Connection"] == "close")
            #expect(try a.readToEnd().isEmpty)
            let b = try connect(server)
            try b.write("GET /old HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try b.readResponse().headers["Connection"] == "keep-alive")
            try b.write("GET /again HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try b.readResponse().bodyText == "GET /again 0")
        }
    }

    @Test func slowClientDoesNotStallAnother() throws {
        try withServer { server in
            let slow = try connect(server)
            try slow.write("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Len")
            let fast = try connect(server, timeout: 2_000)
            #expect(try fast.send(HTTPClientRequest(target: "/fast")).bodyText == "GET /fast 0")
            try slow.write("gth: 1\r\n\r\nz")
            #expect(try slow.readResponse().bodyText == "POST /slow 1")
        }
    }

    @Test func malformedRequestGetsPreciseStatusAndClose() throws {
        try withServer { server in
            for (raw, status) in [
                ("GET / HTTP/1.1\r\nHost: x\r\nBad Name: 1\r\n\r\n", 400),
                ("GET / HTTP/3.0\r\nHost: x\r\n\r\n", 505),
                ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", 411),
                ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999999999999999999\r\n\r\n", 413),
            ] {
                let connection = try connect(server)
                try connection.write(raw)
                let response = try connection.readResponse()
                #expect(response.status == status)
                #expect(response.headers["Connection"] == "close")
                #expect(response.headers["Content-Type"]?.hasPrefix("text/plain") == true)
                #expect(!response.body.isEmpty)
                #expect(try connection.readToEnd().isEmpty)
            }
        }
    }

    @Test func oversizedHeaderBlockGets431() throws {
        try withServer { server in
            let connection = try connect(server)
            try connection.write(
                "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 20_000) + "\r\n\r\n")
            #expect(try connection.readResponse().status == 431)
        }
    }

    @Test func headerTimeoutClosesTheConnection() throws {
        try withServer(configure: { $0.headerTimeoutMilliseconds = 150 }) { server in
            let connection = try connect(server, timeout: 5_000)
            try connection.write("GET / HTTP/1.1\r\nHo")
            // The server gives up long before the client's 5 s timeout: EOF, no response.
            #expect(try connection.readToEnd().isEmpty)
        }
    }

    @Test func idleKeepAliveTimeoutClosesTheConnection() throws {
        try withServer(configure: { $0.listener.idleTimeoutMilliseconds = 150 }) { server in
            let connection = try connect(server, timeout: 5_000)
            #expect(try connection.send(HTTPClientRequest(target: "/")).status == 200)
            #expect(try connection.readToEnd().isEmpty)
        }
    }

    @Test func bindErrorsAreReported() throws {
        try withServer { server in
            var configuration = HTTPServerConfiguration()
            configuration.listener.port = server.port
            configuration.listener.eventLoops = 1
            let second = EventLoopServer(configuration: configuration, responder: ClosureResponder(body: echoResponder))
            #expect(throws: ListenError.self) { try second.start() }
            do {
                try second.start()
            } catch let error as ListenError {
                #expect(error.kind == .addressInUse)
                #expect(error.message.contains("\(server.port)"))
            }
        }
        var bad = HTTPServerConfiguration()
        bad.listener.host = "not a host!"
        bad.listener.port = 0
        let server = EventLoopServer(configuration: bad, responder: ClosureResponder(body: echoResponder))
        do {
            try server.start()
            Issue.record("expected an error")
        } catch let error as ListenError {
            #expect(error.kind == .invalidAddress)
        }
    }

    @Test func ipv6LoopbackWorksWhenAvailable() throws {
        var configuration = HTTPServerConfiguration()
        configuration.listener.host = "::1"
        configuration.listener.port = 0
        configuration.listener.eventLoops = 1
        let server = EventLoopServer(configuration: configuration, responder: ClosureResponder(body: echoResponder))
        guard (try? server.start()) != nil else { return }  // no IPv6 on this host
        defer { server.shutdown() }
        let response = try HTTPClient.send(HTTPClientRequest(target: "/v6"), host: "::1", port: server.port)
        #expect(response.bodyText == "GET /v6 0")
    }

    @Test func connectionCapRefusesBeyondTheLimit() throws {
        try withServer(configure: { $0.listener.maxConnections = 2 }) { server in
            let a = try connect(server)
            let b = try connect(server)
            #expect(try a.send(HTTPClientRequest(target: "/a")).status == 200)
            #expect(try b.send(HTTPClientRequest(target: "/b")).status == 200)
            let c = try connect(server)
            let refused = try c.readResponse()
            #expect(refused.status == 503)
            #expect(try c.readToEnd().isEmpty)
            // Freeing a slot lets a new client in (the server notices the close asynchronously).
            a.shutdownWrite()
            _ = try a.readToEnd()
            var served = false
            for _ in 0..<50 where !served {
                let d = try connect(server)
                if let response = try? d.send(HTTPClientRequest(target: "/d")), response.status == 200 {
                    served = true
                } else {
                    usleep(20_000)
                }
            }
            #expect(served)
        }
    }

    @Test func shutdownFinishesTheRequestInFlight() throws {
        let arrived = Flag()
        var configuration = HTTPServerConfiguration()
        configuration.listener.port = 0
        configuration.listener.eventLoops = 1
        let server = EventLoopServer(
            configuration: configuration,
            responder: ClosureResponder { request in
                arrived.value.store(true, ordering: .sequentiallyConsistent)
                return HTTPResponse(status: 200, body: Array("done".utf8), delivery: .delayed(milliseconds: 300))
            })
        try server.start()
        let port = server.port
        let idle = try ClientConnection(host: "127.0.0.1", port: port, timeoutMilliseconds: 5_000)
        let busy = try ClientConnection(host: "127.0.0.1", port: port, timeoutMilliseconds: 5_000)
        try busy.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        for _ in 0..<500 where !arrived.value.load(ordering: .sequentiallyConsistent) { usleep(2_000) }
        let didArrive = arrived.value.load(ordering: .sequentiallyConsistent)
        #expect(didArrive)
        server.shutdown()
        let response = try busy.readResponse()
        #expect(response.status == 200)
        #expect(response.bodyText == "done")
        #expect(response.headers["Connection"] == "close")
        #expect(try idle.readToEnd().isEmpty)
        #expect(throws: ClientError.self) {
            try ClientConnection(host: "127.0.0.1", port: port, timeoutMilliseconds: 1_000)
        }
    }
}

/// A Sendable box for an atomic flag (Atomic itself is not copyable, so closures cannot capture it).
final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}
