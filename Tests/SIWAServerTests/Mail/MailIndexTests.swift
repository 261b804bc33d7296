import Testing

@testable import Mailbox

/// The index's byte search finds what `String.contains` finds.
@Suite struct MailIndexTests {
    @Test func byteSearchAgreesWithContains() {
        let pieces = ["a", "b", "ab", "é", "ü", "\n", " ", "order-7", "order-", "7", "x", "💌"]
        var state: UInt64 = 3
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func text(_ count: Int) -> String { (0..<next(count)).map { _ in pieces[next(pieces.count)] }.joined() }
        for _ in 0..<20_000 {
            let haystack = text(12)
            let needle = text(3)
            guard !needle.isEmpty else { continue }  // a search term is never empty (`MailpitSearch`)
            #expect(MailIndex.contains(haystack, needle) == haystack.contains(needle), "\(haystack) \(needle)")
        }
        #expect(MailIndex.contains("receipt for order-7", "order-7") && !MailIndex.contains("order-", "order-7"))
    }
}
