import Dispatch
import SIWACore
import Synchronization
import Testing

/// `SystemRandomSource` draws from a pool per thread (no lock shared by the store workers).
@Suite struct SystemRandomSourceTests {
    /// Eight threads at once (the store workers' count) each get values no other thread gets, and no
    /// thread sees a value twice: the per-thread pools are refilled from the DRBG, never shared or reused.
    @Test func concurrentThreadsNeverShareOrRepeatAValue() {
        let source = SystemRandomSource()
        let drawn = Mutex<[[UInt64]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            var values: [UInt64] = []
            values.reserveCapacity(5_000)
            for _ in 0..<5_000 { values.append(source.next()) }  // ~78 refills of 64 words per thread
            drawn.withLock { $0.append(values) }
        }
        let all = drawn.withLock { $0 }
        #expect(all.count == 8)
        #expect(Set(all.joined()).count == 40_000, "a 64-bit value came out twice: a pool was shared or reused")
        #expect(all.allSatisfy { Set($0).count == $0.count })
    }

    /// Two sources on one thread draw from the same thread pool, still never the same value.
    @Test func twoSourcesOnOneThreadDoNotRepeat() {
        let a = SystemRandomSource()
        let b = SystemRandomSource()
        let values = (0..<1_000).flatMap { _ in [a.next(), b.next()] }
        #expect(Set(values).count == 2_000)
    }

    /// A token's characters: only the alphabet's bytes, each about equally often (rejection sampling, no
    /// modulo bias). 26 letters drawn 260,000 times: each count within 6 standard deviations of 10,000.
    @Test func drawIsUniformOverTheAlphabet() {
        let source = SystemRandomSource()
        for alphabet in [Array("abcdefghijklmnopqrstuvwxyz".utf8), Array("0123456789abcdef".utf8)] {
            let draws = 10_000 * alphabet.count
            let bytes = source.draw(draws, from: alphabet)
            #expect(bytes.count == draws)
            var counts: [UInt8: Int] = [:]
            for byte in bytes { counts[byte, default: 0] += 1 }
            #expect(Set(counts.keys) == Set(alphabet))
            let p = 1 / Double(alphabet.count)
            let sigma = (Double(draws) * p * (1 - p)).squareRoot()
            #expect(counts.values.allSatisfy { abs(Double($0) - 10_000) < 6 * sigma }, "\(counts)")
        }
        #expect(source.draw(5, from: [UInt8(ascii: "x")]) == Array("xxxxx".utf8))
        #expect(source.draw(0, from: [1, 2]).isEmpty)
    }
}
