import RedisStore
import SIWACore
import SIWATestSupport
import Testing

/// What every `FleetJournal` keeps (docs/scale-out.md, "The fleet journal"): records numbered 1, 2, … in
/// append order across writers, read in pages above a sequence, capped at about its capacity, and a
/// clear that keeps the numbering going.
@Suite struct FleetJournalContractTests {
    static func make(_ kind: StoreKind, capacity: Int = 1_000) throws -> any FleetJournal {
        switch kind {
        case .memory: LocalFleetJournal(capacity: capacity)
        case .redis:
            RedisFleetJournal(
                client: try SharedRedis.client(), prefix: "journal-\(UInt64.random(in: 0...UInt64.max)):",
                capacity: capacity)
        }
    }

    @Test(arguments: StoreKind.tested)
    func recordsAreNumberedInOrderAndReadInPages(_ kind: StoreKind) throws {
        let journal = try Self.make(kind)
        #expect(try journal.records(after: 0, count: 10).isEmpty)
        try journal.append(["a1", "a2"])
        try journal.append(["b1"])
        try journal.append([])
        let all = try journal.records(after: 0, count: 10)
        #expect(all.map(\.sequence) == [1, 2, 3] && all.map(\.text) == ["a1", "a2", "b1"])
        #expect(try journal.records(after: 1, count: 1).map(\.text) == ["a2"])
        #expect(try journal.records(after: 3, count: 10).isEmpty)
    }

    @Test(arguments: StoreKind.tested)
    func clearingForgetsTheRecordsButNotTheNumbering(_ kind: StoreKind) throws {
        let journal = try Self.make(kind)
        try journal.append(["1", "2", "3"])
        #expect(try journal.clear() == 3)
        #expect(try journal.records(after: 0, count: 10).isEmpty)
        try journal.append(["4"])
        #expect(try journal.records(after: 0, count: 10).map(\.sequence) == [4], "a reader paging on sees it")
        #expect(try journal.clear() == 1)
        #expect(try journal.clear() == 0)
    }

    @Test(arguments: StoreKind.tested)
    func theOldestRecordsGoBeyondTheCapacity(_ kind: StoreKind) throws {
        let journal = try Self.make(kind, capacity: 100)
        for batch in 0..<20 { try journal.append((0..<50).map { "r\(batch * 50 + $0)" }) }
        let kept = try journal.records(after: 0, count: 10_000)
        // Redis trims whole stream nodes (`MAXLEN ~`, 100 entries each by default): at most one node more.
        #expect(kept.count >= 100 && kept.count <= 200, "\(kept.count) kept")
        #expect(kept.last?.sequence == 1_000 && kept.last?.text == "r999")
        #expect(kept.map(\.sequence) == Array((1_001 - kept.count)...1_000), "the newest, without gaps")
    }

    @Test(.enabled(if: RedisServerBinary.found)) func aRecordNotWrittenByAMockIsSkipped() throws {
        let journal = RedisFleetJournal(
            client: try SharedRedis.client(), prefix: "journal-\(UInt64.random(in: 0...UInt64.max)):", capacity: 100)
        try journal.append(["mine"])
        _ = try SharedRedis.client().send(["XADD", journal.key, "0-*", "other", "field"])
        try journal.append(["mine too"])
        #expect(try journal.records(after: 0, count: 10).map(\.text) == ["mine", "mine too"])
    }
}
