import Testing

@testable import EventLoop

/// `TimerHeap` against a sorted array (the model), over generated histories of pushes and pops.
@Suite struct TimerHeapTests {
    /// SplitMix64: a seeded generator, so a failing history is reproduced from its seed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: 0..<200 as Range<UInt64>) func popsDueEntriesInDeadlineOrderLikeASortedList(seed: UInt64) {
        var random = SeededGenerator(state: seed)
        var heap = TimerHeap()
        var model: [Int64] = []
        var now: Int64 = 0
        for _ in 0..<Int.random(in: 1...300, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6:
                // Deadlines cluster (ties are common: many connections armed in one pass).
                let deadline = now + Int64.random(in: 0...50, using: &random)
                heap.push(TimerHeap.Entry(deadline: deadline, fd: 3, serial: 1))
                model.append(deadline)
            default:
                now += Int64.random(in: 0...20, using: &random)
                var popped: [Int64] = []
                while let entry = heap.popDue(now: now) { popped.append(entry.deadline) }
                let due = model.filter { $0 <= now }.sorted()
                model = model.filter { $0 > now }
                #expect(popped == due, "seed \(seed)")
            }
            #expect(heap.earliest == model.min(), "seed \(seed)")
            #expect(heap.isEmpty == model.isEmpty)
        }
    }

    @Test func nothingIsDueBeforeItsDeadlineAndAnEmptyHeapHasNoEarliest() {
        var heap = TimerHeap()
        #expect(heap.earliest == nil)
        #expect(heap.popDue(now: .max) == nil)
        heap.push(TimerHeap.Entry(deadline: 10, fd: 1, serial: 7))
        #expect(heap.popDue(now: 9) == nil)
        let entry = heap.popDue(now: 10)
        #expect(entry?.fd == 1 && entry?.serial == 7)
        #expect(heap.isEmpty)
    }
}

extension TimerHeap.Entry: Equatable {
    public static func == (a: Self, b: Self) -> Bool {
        a.deadline == b.deadline && a.fd == b.fd && a.serial == b.serial
    }
}
