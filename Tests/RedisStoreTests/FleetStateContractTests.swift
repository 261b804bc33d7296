import HTTPServer
import RedisStore
import SIWACore
import SIWATestSupport
import Testing

/// What every `FleetState` keeps: absolute states per topic, a stamp that moves with each publication
/// and never repeats (not even after the shared keys are removed by a reset).
@Suite struct FleetStateContractTests {
    static func make(_ kind: StoreKind) -> (state: any FleetState, removeAll: () throws -> Void) {
        switch kind {
        case .memory:
            return (LocalFleetState(), {})
        case .redis:
            let prefix = "fleet-\(UInt64.random(in: 0...UInt64.max)):"
            let grants = RedisGrantStore(
                client: SharedRedis.client, prefix: prefix, settings: Scenario.builtIn.settings,
                identifiers: IdentifierGenerator(random: SeededRandomSource(seed: 1)))
            return (RedisFleetState(client: SharedRedis.client, prefix: prefix), { try grants.removeAll() })
        }
    }

    @Test(arguments: StoreKind.allCases)
    func publishedStatesAreReadBackWithTheirStamps(_ kind: StoreKind) throws {
        let (state, _) = Self.make(kind)
        #expect(try state.currentStamp() == nil)
        #expect(try state.read() == FleetSnapshot(stamp: nil, topics: [:]))
        let clock = try state.publish(.clock, value: "c1")
        #expect(try state.currentStamp() == clock)
        let keys = try state.publish(.keys, value: "k1")
        let replaced = try state.publish(.clock, value: "c2")
        #expect(Set([clock, keys, replaced]).count == 3)
        #expect(
            try state.read()
                == FleetSnapshot(
                    stamp: replaced,
                    topics: [.clock: .init(stamp: replaced, value: "c2"), .keys: .init(stamp: keys, value: "k1")]))
    }

    @Test func redisStateIsSharedByReplicasAndItsStampsNeverRepeatAfterAReset() throws {
        let (state, removeAll) = Self.make(.redis)
        let other = RedisFleetState(
            client: RedisClient(endpoint: try RedisEndpoint(url: SharedRedis.server.url)),
            prefix: String((state as! RedisFleetState).key.dropLast()))
        var seen: Set<String> = []
        for round in 0..<3 {
            let stamp = try state.publish(.keys, value: "round \(round)")
            #expect(seen.insert(stamp).inserted)
            #expect(try other.read().topics[.keys] == .init(stamp: stamp, value: "round \(round)"))
            try removeAll()
            #expect(try other.currentStamp() == nil, "POST /mock/reset removes the fleet hash with the grants")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func userChangesAreReadInOrderFromACursor(_ kind: StoreKind) throws {
        let (state, removeAll) = Self.make(kind)
        #expect(try state.userChanges(after: nil, limit: 10).changes.isEmpty)
        try state.publishUser(id: "bob", text: "b1")
        let carol = try state.publishUser(id: "carol", text: "c1")
        try state.publishUser(id: "bob", text: "")
        let all = try state.userChanges(after: nil, limit: 10)
        #expect(all.changes.map { "\($0.id)=\($0.text)" } == ["carol=c1", "bob="], "latest state per user, in order")
        let first = try state.userChanges(after: nil, limit: 1)
        #expect(first.changes.map(\.id) == ["carol"] && first.cursor == carol)
        #expect(try state.userChanges(after: first.cursor, limit: 10).changes.map(\.id) == ["bob"])
        #expect(try state.userChanges(after: all.cursor, limit: 10).changes.isEmpty)
        guard kind == .redis else { return }
        try removeAll()
        try state.publishUser(id: "dave", text: "d1")
        #expect(
            try state.userChanges(after: all.cursor, limit: 10).changes.map(\.id) == ["dave"],
            "after a reset (new epoch) the old cursor reads from the start")
    }

    @Test(arguments: StoreKind.allCases)
    func faultCountersDecideLikeTheEngineAndReset(_ kind: StoreKind) throws {
        let (state, _) = Self.make(kind)
        let twice = FleetFaultCount(ruleID: "twice", after: 1, times: 2, drawHit: true)
        let other = FleetFaultCount(ruleID: "other", after: 0, times: nil, drawHit: true)
        var fired: [Int?] = []
        for _ in 0..<5 { fired.append(try state.countFaults([twice, other]).firing) }
        #expect(fired == [1, 0, 0, 1, 1], "after 1 lets one through, then twice fires twice; other fires otherwise")
        let missed = try state.countFaults([FleetFaultCount(ruleID: "twice", after: 0, times: nil, drawHit: false)])
        #expect(missed.firing == nil)
        #expect(missed.counts.map(\.matched) == [6] && missed.counts.map(\.fired) == [2])
        try state.resetFaultCounters(["twice"])
        #expect(try state.countFaults([twice]).counts.map(\.matched) == [1])
    }
}
