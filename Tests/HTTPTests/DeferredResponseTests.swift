import Dispatch
import HTTP
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Responses finished on another thread: the loop keeps serving other connections while one waits,
/// pipelined requests on the waiting connection keep their order, and a client that left is no harm.
@Suite struct DeferredResponseTests {
    /// `/slow/N` is finished by another thread after N ms; everything else is answered on the loop.
    static let respond: @Sendable (HTTPRequest) -> HTTPResponse = { request in
        guard request.path.hasPrefix("/slow/"), let delay = Int(request.path.dropFirst(6)) else {
            return echoResponder(request)
        }
        let pending = DeferredResponse()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) {
            var response = echoResponder(request)
            response.headers.add("X-Finished", "elsewhere")
            pending.fulfill(response)
        }
        return .deferred(pending)
    }

    @Test func theLoopServesOthersWhileOneResponseIsFinishedElsewhere() throws {
        try withServer(loops: 1, respond: Self.respond) { server in
            let waiting = try connect(server)
            try waiting.write("GET /slow/400 HTTP/1.1\r\nHost: x\r\n\r\n")
            let other = try connect(server)
            let started = DispatchTime.now()
            try other.write("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try other.readResponse().status == 200)
            let elapsed = (DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000
            #expect(elapsed < 300, "the single loop answered while the other response was pending (\(elapsed) ms)")
            let slow = try waiting.readResponse()
            #expect(slow.status == 200 && slow.headers["X-Finished"] == "elsewhere")
            #expect(String(decoding: slow.body, as: UTF8.self) == "GET /slow/400 0")
        }
    }

    @Test func pipelinedRequestsKeepTheirOrder() throws {
        try withServer(respond: Self.respond) { server in
            let connection = try connect(server)
            try connection.write(
                "GET /slow/100 HTTP/1.1\r\nHost: x\r\n\r\nGET /now HTTP/1.1\r\nHost: x\r\n\r\nGET /slow/1 HTTP/1.1\r\nHost: x\r\n\r\n"
            )
            let bodies = try (0..<3).map { _ in String(decoding: try connection.readResponse().body, as: UTF8.self) }
            #expect(bodies == ["GET /slow/100 0", "GET /now 0", "GET /slow/1 0"])
        }
    }

    @Test func aClientThatLeftBeforeTheAnswerIsNoHarm() throws {
        let finished = Mutex(0)
        try withServer(
            onExchange: { _ in finished.withLock { $0 += 1 } }, respond: Self.respond
        ) { server in
            do {
                let leaving = try connect(server)
                try leaving.write("GET /slow/100 HTTP/1.1\r\nHost: x\r\n\r\n")
            }  // closed here, before the answer
            usleep(200_000)
            let next = try connect(server)
            try next.write("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try next.readResponse().status == 200)
        }
        // A FIN is a half-close: the late answer is still written (HTTP allows the client to read it).
        #expect(finished.withLock { $0 } == 2, "both exchanges finished, none left hanging")
    }

    @Test func aPeerClosingWhileWaitingCancelsTheWait() throws {
        let cancelled = Mutex(0)
        let pending = DeferredResponse()
        pending.onCancel {
            cancelled.withLock { $0 += 1 }
            pending.fulfill(HTTPResponse(status: 204))
        }
        try withServer(respond: { request in request.path == "/park" ? .deferred(pending) : echoResponder(request) }) {
            server in
            do {
                let leaving = try connect(server)
                try leaving.write("GET /park HTTP/1.1\r\nHost: x\r\n\r\n")
                usleep(100_000)
                #expect(cancelled.withLock { $0 } == 0, "still parked while the peer is there")
            }  // closed here: the loop sees RDHUP and cancels
            var waited = 0
            while cancelled.withLock({ $0 }) == 0 && waited < 2000 {
                usleep(10_000)
                waited += 10
            }
            #expect(cancelled.withLock { $0 } == 1)
            let next = try connect(server)
            try next.write("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try next.readResponse().status == 200)
        }
    }

    @Test func aDeferredAnswerThatIsItselfDeferredIsForwarded() {
        let outer = DeferredResponse()
        let inner = DeferredResponse()
        let innerCancelled = Mutex(false)
        inner.onCancel { innerCancelled.withLock { $0 = true } }
        outer.fulfill(.deferred(inner))
        let got = Mutex<Int?>(nil)
        outer.whenFulfilled { response in got.withLock { $0 = response.status.code } }
        #expect(got.withLock { $0 } == nil)
        outer.cancel()
        #expect(innerCancelled.withLock { $0 })
        inner.fulfill(HTTPResponse(status: 201))
        #expect(got.withLock { $0 } == 201)
    }

    @Test func fulfillingTwiceKeepsTheFirstAnswer() throws {
        let pending = DeferredResponse()
        pending.fulfill(HTTPResponse(status: 201))
        pending.fulfill(HTTPResponse(status: 500))
        try withServer(respond: { _ in .deferred(pending) }) { server in
            let connection = try connect(server)
            try connection.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().status == 201)
        }
    }
}
