import EventLoop
import HTTP
import Testing

/// Keep-alive, pipelining, `Connection: close` and HTTP/1.0 on one connection, fed bytes with no socket.
@Suite struct EmbeddedKeepAliveTests {
    static let echo = ClosureResponder { request in HTTPResponse(status: 200, body: Array("hi \(request.target)".utf8))
    }

    static func get(_ target: String, _ extra: String = "", version: String = "HTTP/1.1") -> String {
        "GET \(target) \(version)\r\nHost: x\r\n\(extra)\r\n"
    }

    @Test func twoRequestsOneAfterTheOtherShareTheConnectionAndRestartTheIdleDeadline() {
        let peer = EmbeddedConnection(responder: Self.echo)
        peer.feed(Self.get("/a"))
        let first = peer.takeSentText()
        #expect(first.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(first.hasSuffix("\r\n\r\nhi /a"))
        #expect(!first.contains("Connection: close"))
        #expect(peer.isOpen)
        #expect(peer.deadline.kind == .idle)
        #expect(peer.deadline.at == peer.now + peer.idleTimeout)

        peer.advance(by: peer.idleTimeout - 1)
        peer.feed(Self.get("/b"))
        #expect(peer.takeSentText().hasSuffix("hi /b"))
        #expect(peer.deadline.at == peer.now + peer.idleTimeout)
    }

    @Test func pipelinedRequestsInOneReadAreAnsweredInOrder() {
        let peer = EmbeddedConnection(responder: Self.echo)
        peer.feed(Self.get("/1") + Self.get("/2") + Self.get("/3"))
        let text = peer.takeSentText()
        let bodies = text.components(separatedBy: "\r\n\r\n").dropFirst().map { $0.prefix(5) }
        #expect(bodies == ["hi /1", "hi /2", "hi /3"])
        #expect(peer.isOpen)
    }

    @Test func aRequestSplitAcrossReadsIsAnsweredOnceWhole() {
        let peer = EmbeddedConnection(responder: Self.echo)
        for byte in Self.get("/drip").utf8 {
            #expect(peer.sent.isEmpty)
            peer.feed([byte])
        }
        #expect(peer.takeSentText().hasSuffix("hi /drip"))
    }

    @Test func connectionCloseAnswersThenLingersThenCloses() {
        let peer = EmbeddedConnection(responder: Self.echo)
        peer.feed(Self.get("/bye", "Connection: close\r\n") + Self.get("/never"))
        let text = peer.takeSentText()
        #expect(text.contains("Connection: close\r\n"))
        #expect(!text.contains("/never"))
        #expect(peer.writeShut)
        guard case .lingering = peer.phase else {
            Issue.record("expected lingering, got \(peer.phase)")
            return
        }
        peer.advance(by: peer.lingerTime)
        #expect(peer.ending == .finished)
    }

    @Test func http10IsClosedUnlessItAsksForKeepAlive() {
        let plain = EmbeddedConnection(responder: Self.echo)
        plain.feed(Self.get("/", version: "HTTP/1.0"))
        #expect(plain.takeSentText().contains("Connection: close\r\n"))
        #expect(plain.writeShut)

        let kept = EmbeddedConnection(responder: Self.echo)
        kept.feed(Self.get("/", "Connection: keep-alive\r\n", version: "HTTP/1.0"))
        #expect(kept.takeSentText().contains("Connection: keep-alive\r\n"))
        #expect(kept.isOpen && !kept.writeShut)
    }

    @Test func theServerAnswersWhatIsBufferedWhenThePeerHalfClosesThenCloses() {
        let peer = EmbeddedConnection(responder: Self.echo)
        peer.feed(Self.get("/last"))
        peer.peerCloses()
        #expect(peer.takeSentText().hasSuffix("hi /last"))
        #expect(peer.ending == .closed)
    }

    @Test func aMalformedRequestGetsItsStatusAndTheConnectionCloses() {
        let peer = EmbeddedConnection(responder: Self.echo)
        peer.feed("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n")
        let text = peer.takeSentText()
        #expect(text.hasPrefix("HTTP/1.1 400 ") || text.hasPrefix("HTTP/1.1 413 "))
        #expect(text.contains("Connection: close\r\n"))
        #expect(peer.writeShut)
    }

    @Test func eachFinishedExchangeIsReportedOnceWithItsStatus() {
        let records = RecordBox()
        let peer = EmbeddedConnection(responder: Self.echo, onExchanges: { records.append($0) })
        peer.feed(Self.get("/one") + Self.get("/two"))
        #expect(records.values.map(\.target) == ["/one", "/two"])
        #expect(records.values.allSatisfy { $0.status == .ok && $0.remoteAddress == "127.0.0.1:40000" })
    }
}

extension EmbeddedKeepAliveTests {
    /// Above `info` the request log writes only 5xx lines: exchanges under the floor are not recorded at all,
    /// the rest are, and a response under the floor is still sent whole.
    @Test func exchangesUnderTheRecordedStatusFloorAreNotRecorded() {
        let records = RecordBox()
        let byPath = ClosureResponder { request in
            HTTPResponse(status: request.target == "/fail" ? 503 : 200, body: Array("hi".utf8))
        }
        let peer = EmbeddedConnection(
            responder: byPath, configure: { $0.recordedStatusFloor = 500 }, onExchanges: { records.append($0) })
        peer.feed(Self.get("/ok") + Self.get("/fail") + Self.get("/ok"))
        let text = peer.takeSentText()
        #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
        #expect(text.contains("HTTP/1.1 503 "))
        #expect(records.values.map(\.target) == ["/fail"])
        #expect(records.values.map(\.status) == [.serviceUnavailable])
    }
}

/// Exchange records collected from `onExchanges` (called on the test's own thread here).
final class RecordBox: @unchecked Sendable {
    // Safe: an embedded connection runs on the test's thread only.
    var values: [HTTPExchangeRecord] = []
    func append(_ records: [HTTPExchangeRecord]) { values += records }
}

extension EmbeddedConnection {
    convenience init(
        responder: any HTTPResponder, configure: (inout HTTPServerConfiguration) -> Void = { _ in },
        onExchanges: (@Sendable ([HTTPExchangeRecord]) -> Void)? = nil
    ) {
        var configuration = HTTPServerConfiguration()
        configure(&configuration)
        self.init(http: configuration, responder: responder, onExchanges: onExchanges)
    }
}
