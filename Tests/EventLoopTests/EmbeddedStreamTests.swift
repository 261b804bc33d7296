import EventLoop
import Testing

/// The stream seam (SMTP's) through an embedded connection: the same session, phases and deadlines as
/// on a socket, fed bytes and a clock.
@Suite struct EmbeddedStreamTests {
    @Test func greetsAnswersEachLineAndLingersAfterItsLastWord() {
        let peer = EmbeddedConnection(stream: ShoutService())
        #expect(peer.takeSentText() == "hello\n")
        peer.feed("one\ntw")
        #expect(peer.takeSentText() == "ONE\n")
        peer.feed("o\nquit\nignored after quit\n")
        #expect(peer.takeSentText() == "TWO\nbye\n")
        #expect(peer.writeShut)
        peer.peerCloses()
        #expect(peer.ending == .finished)
    }

    @Test func aSilentPeerGetsTheLastWordsAtTheIdleDeadline() {
        let peer = EmbeddedConnection(stream: ShoutService(), idleTimeoutMilliseconds: 300)
        _ = peer.takeSentText()
        peer.feed("half a li")
        peer.advance(by: 299_000_000)
        #expect(peer.isOpen)
        peer.advance(by: 1_000_000)
        #expect(peer.takeSentText() == "too slow\n")
        #expect(peer.ending == .closed)
    }

    @Test func aReplyRestartsTheIdleDeadlineButADrippedLineDoesNot() {
        let peer = EmbeddedConnection(stream: ShoutService(), idleTimeoutMilliseconds: 300)
        peer.advance(by: 200_000_000)
        peer.feed("a\n")
        #expect(peer.deadline.at == peer.now + 300_000_000)
        peer.advance(by: 200_000_000)
        peer.feed("b")
        peer.advance(by: 100_000_000)
        #expect(peer.ending == .closed)
    }
}
