import Testing

@testable import SMTP

/// The DATA reader's fast path (whole runs of message content) keeps exactly what reading one byte
/// at a time keeps, on many generated inputs.
@Suite struct MessageReaderRunTests {
    @Test func contentRunsKeepTheSameBytesAndSizeAsOneByteAtATime() {
        // A linear congruential generator (Knuth's MMIX constants): a failure names a reproducible round.
        var state: UInt64 = 1
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let parts: [[UInt8]] = ["x", "\r\n", "\r", "\n", ".", "\r\n.\r", "abc def", String(repeating: "y", count: 300)]
            .map { Array($0.utf8) }
        for round in 0..<2_000 {
            var input: [UInt8] = []
            for _ in 0..<next(30) { input += parts[next(parts.count)] }
            input += Array("\r\n.\r\n".utf8)
            let limit = [5, 64, 700, 10_000][round % 4]
            var whole = MessageReader(limit: limit)
            let wholeEnd = input.withUnsafeBytes { whole.consume($0, from: 0) }
            var dripped = MessageReader(limit: limit)
            var drippedEnd = (0, false)
            for index in input.indices where !drippedEnd.1 {
                drippedEnd = [input[index]].withUnsafeBytes { dripped.consume($0, from: 0) }
                drippedEnd.0 = index + 1
            }
            #expect(wholeEnd == drippedEnd)
            #expect(whole.data == dripped.data)
            #expect(whole.size == dripped.size)
            #expect(whole.isOversized == dripped.isOversized)
        }
    }
}
