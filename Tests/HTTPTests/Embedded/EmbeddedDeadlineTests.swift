import EventLoop
import HTTP
import Testing

/// `100 Continue` and the read-side deadlines (header, body, idle, write stall), fed bytes and a clock.
@Suite struct EmbeddedDeadlineTests {
    static let echoBody = ClosureResponder { request in HTTPResponse(status: 200, body: request.body) }
    static func timeouts(_ configuration: inout HTTPServerConfiguration) {
        configuration.headerTimeoutMilliseconds = 1_000
        configuration.bodyTimeoutMilliseconds = 2_000
        configuration.listener.idleTimeoutMilliseconds = 5_000
    }
    static let millisecond: Int64 = 1_000_000

    @Test func continueIsSentOnceTheHeadAsksForItThenTheBodyIsAnswered() {
        let peer = EmbeddedConnection(responder: Self.echoBody)
        peer.feed("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        #expect(peer.takeSentText() == "HTTP/1.1 100 Continue\r\n\r\n")
        #expect(peer.deadline.kind == .body)
        peer.feed("hel")
        #expect(peer.sent.isEmpty)
        peer.feed("lo")
        let text = peer.takeSentText()
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.hasSuffix("\r\n\r\nhello"))
    }

    @Test func continueIsNotSentWhenTheBodyCameWithTheHead() {
        let peer = EmbeddedConnection(responder: Self.echoBody)
        peer.feed("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\nok")
        let text = peer.takeSentText()
        #expect(!text.contains("100 Continue"))
        #expect(text.hasSuffix("\r\n\r\nok"))
    }

    @Test func continueThatDoesNotFitWaitsForRoomWhileReadingGoesOn() {
        let peer = EmbeddedConnection(responder: Self.echoBody)
        peer.window = 4
        peer.feed("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
        #expect(peer.takeSentText() == "HTTP")
        #expect(peer.phase.isReadingPhase)
        peer.peerReads()
        #expect(peer.takeSentText() == "/1.1 100 Continue\r\n\r\n")
        peer.feed("ok")
        #expect(peer.takeSentText().hasSuffix("ok"))
    }

    @Test func aHeadThatStopsHalfWayIsClosedAtTheHeaderDeadline() {
        let peer = EmbeddedConnection(responder: Self.echoBody, configure: Self.timeouts)
        peer.feed("GET / HTTP/1.1\r\nHo")
        #expect(peer.deadline.kind == .header)
        peer.advance(by: 1_000 * Self.millisecond - 1)
        #expect(peer.isOpen)
        peer.advance(by: 1)
        #expect(peer.ending == .closed)
        #expect(peer.sent.isEmpty)
    }

    @Test func aDripFedHeadDoesNotStretchTheHeaderDeadline() {
        let peer = EmbeddedConnection(responder: Self.echoBody, configure: Self.timeouts)
        for byte in "GET / HTTP/1.1\r\nX-Slow: aaaaaaaaaaaa".utf8 {
            peer.feed([byte])
            peer.advance(by: 100 * Self.millisecond)
        }
        #expect(peer.ending == .closed)
    }

    @Test func aBodyThatStopsIsClosedAtTheBodyDeadline() {
        let peer = EmbeddedConnection(responder: Self.echoBody, configure: Self.timeouts)
        peer.feed("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
        #expect(peer.deadline.kind == .body)
        peer.advance(by: 2_000 * Self.millisecond)
        #expect(peer.ending == .closed)
    }

    @Test func anIdleKeepAliveConnectionIsClosedAtTheIdleDeadline() {
        let peer = EmbeddedConnection(responder: Self.echoBody, configure: Self.timeouts)
        peer.feed("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(peer.takeSentText().hasPrefix("HTTP/1.1 200"))
        peer.advance(by: 5_000 * Self.millisecond - 1)
        #expect(peer.isOpen)
        peer.advance(by: 1)
        #expect(peer.ending == .closed)
    }

    @Test func aPeerThatStopsReadingIsClosedAtTheWriteStallDeadline() {
        let big = ClosureResponder { _ in HTTPResponse(status: 200, body: Array(repeating: 65, count: 10_000)) }
        let peer = EmbeddedConnection(responder: big, configure: Self.timeouts)
        peer.window = 100
        peer.feed("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(peer.sent.count == 100)
        #expect(peer.deadline.kind == .writeStall)
        peer.advance(by: 5_000 * Self.millisecond)
        #expect(peer.ending == .closed)
    }

    @Test func aSlowReaderGetsTheWholeResponseAndThePipelinedNextOne() {
        let big = ClosureResponder { request in
            HTTPResponse(status: 200, body: Array(request.target.utf8) + Array(repeating: 65, count: 1_000))
        }
        let peer = EmbeddedConnection(responder: big)
        peer.window = 10
        peer.feed("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(peer.sent.count == 10)
        while peer.isOpen && peer.sent.count < 2_000 && !peer.phase.isReadingPhase {
            peer.window = 0
            peer.peerReads(64)
        }
        peer.peerReads()
        let text = peer.takeSentText()
        #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
        #expect(text.contains("\r\n\r\n/1AAA") && text.contains("\r\n\r\n/2AAA"))
        #expect(peer.phase.isReadingPhase)
    }
}

extension Connection.Phase {
    var isReadingPhase: Bool {
        if case .reading = self { return true }
        return false
    }
}
