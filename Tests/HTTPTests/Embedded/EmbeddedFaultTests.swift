import EventLoop
import HTTP
import Testing

/// Each `HTTPResponse.Delivery` fault and the deferred (parked) response, delivered with no socket: what
/// leaves, when (on the test's clock), and how the connection ends.
@Suite struct EmbeddedFaultTests {
    static let body = Array(String(repeating: "0123456789", count: 20).utf8)
    static let millisecond: Int64 = 1_000_000

    static func serve(_ delivery: HTTPResponse.Delivery) -> EmbeddedConnection {
        let peer = EmbeddedConnection(
            responder: ClosureResponder { _ in HTTPResponse(status: 200, body: body, delivery: delivery) })
        peer.feed("GET /fault HTTP/1.1\r\nHost: x\r\n\r\n")
        return peer
    }

    @Test func delayedIsHeldUntilItsTimeThenSentWhole() {
        let peer = Self.serve(.delayed(milliseconds: 100))
        #expect(peer.sent.isEmpty)
        #expect(peer.deadline.kind == .hold)
        peer.advance(by: 99 * Self.millisecond)
        #expect(peer.sent.isEmpty)
        peer.advance(by: Self.millisecond)
        #expect(peer.takeSentText().hasSuffix(String(decoding: Self.body, as: UTF8.self)))
        #expect(peer.phase.isReadingPhase)
    }

    @Test func inputDuringAHoldWaitsAndIsAnsweredAfterIt() {
        let peer = Self.serve(.delayed(milliseconds: 10))
        peer.feed("GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(peer.sent.isEmpty)
        peer.advance(by: 10 * Self.millisecond)
        #expect(peer.takeSentText().components(separatedBy: "HTTP/1.1 200 OK").count == 2)
        peer.advance(by: 10 * Self.millisecond)
        #expect(peer.takeSentText().hasPrefix("HTTP/1.1 200 OK"))
    }

    @Test func resetClosesWithRSTAndSendsNothing() {
        let peer = Self.serve(.reset)
        #expect(peer.ending == .reset)
        #expect(peer.sent.isEmpty)
    }

    @Test func closeWithoutResponseSendsFINAndNothingElse() {
        let peer = Self.serve(.closeWithoutResponse)
        #expect(peer.ending == .finished)
        #expect(peer.sent.isEmpty)
    }

    @Test func truncatedBodySendsTheHeadAndHalfTheBodyThenCloses() throws {
        let peer = Self.serve(.truncatedBody)
        let text = peer.takeSentText()
        #expect(text.contains("Content-Length: \(Self.body.count)\r\n"))
        let headEnd = try #require(text.utf8.firstRange(of: "\r\n\r\n".utf8))
        #expect(text.utf8.distance(from: headEnd.upperBound, to: text.utf8.endIndex) == Self.body.count / 2)
        #expect(peer.writeShut)
    }

    @Test func slowBodyLeavesOneChunkPerTickThenKeepsTheConnection() {
        let peer = Self.serve(.slowBody(chunkSize: 64, intervalMilliseconds: 5))
        #expect(peer.sent.count == 64)
        #expect(peer.deadline.kind == .dribbleTick)
        peer.advance(by: 4 * Self.millisecond)
        #expect(peer.sent.count == 64)
        peer.advance(by: Self.millisecond)
        #expect(peer.sent.count == 128)
        peer.advance(by: 100 * Self.millisecond)
        #expect(peer.takeSentText().hasSuffix(String(decoding: Self.body, as: UTF8.self)))
        #expect(peer.phase.isReadingPhase)
        #expect(peer.deadline.kind == .idle)
    }

    @Test func aDeferredResponseParksTheConnectionUntilItIsPostedAndKeepsPipelinedInputInOrder() {
        let waiting = DeferredBox()
        let peer = EmbeddedConnection(
            responder: ClosureResponder { request in
                if request.target == "/wait" {
                    let deferred = DeferredResponse()
                    waiting.value = deferred
                    return HTTPResponse(status: 200, delivery: .deferred(deferred))
                }
                return HTTPResponse(status: 200, body: Array(request.target.utf8))
            })
        peer.feed("GET /wait HTTP/1.1\r\nHost: x\r\n\r\nGET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(peer.sent.isEmpty)
        guard case .parked = peer.phase else {
            Issue.record("expected parked, got \(peer.phase)")
            return
        }
        #expect(peer.deadline.at == .max)
        peer.advance(by: 3_600_000 * Self.millisecond)
        #expect(peer.isOpen)
        waiting.value?.fulfill(HTTPResponse(status: 201, body: Array("done".utf8)))
        #expect(peer.sent.isEmpty)
        peer.deliverPosts()
        let text = peer.takeSentText()
        #expect(text.hasPrefix("HTTP/1.1 201 Created\r\n"))
        #expect(text.hasSuffix("\r\n\r\n/after"))
    }

    /// A connection whose every request waits (a long poll) until cancelled, which `cancelled` notes.
    static func parking(noting cancelled: FlagBox) -> EmbeddedConnection {
        EmbeddedConnection(
            responder: ClosureResponder { _ in
                let deferred = DeferredResponse()
                deferred.onCancel { cancelled.value = true }
                return HTTPResponse(status: 200, delivery: .deferred(deferred))
            })
    }

    @Test func thePeerLeavingWhileParkedCancelsTheWait() {
        let cancelled = FlagBox()
        let peer = Self.parking(noting: cancelled)
        peer.feed("GET /mock/mail?wait=30s HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(!cancelled.value)
        peer.peerCloses()
        #expect(cancelled.value)
    }

    @Test func closingAParkedConnectionCancelsTheWaitToo() {
        let cancelled = FlagBox()
        let peer = Self.parking(noting: cancelled)
        peer.feed("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        peer.close(peer.connection)
        #expect(cancelled.value)
    }
}

final class DeferredBox: @unchecked Sendable {
    // Safe: set and read on the test's thread only (the embedded connection calls the responder there).
    var value: DeferredResponse? = nil
}

final class FlagBox: @unchecked Sendable {
    // Safe: the embedded connection runs cancellation on the test's thread.
    var value = false
}
