import Dispatch
import RESP
import RedisStore
import SIWACore
import SIWATestSupport
import ScenarioModel
import Synchronization
import Testing

/// What every `FleetState` keeps: absolute states per topic, a stamp that moves with each publication
/// and never repeats (not even after the shared keys are removed by a reset).
@Suite struct FleetStateContractTests {
    static func make(_ kind: StoreKind) throws -> (state: any FleetState, removeAll: () throws -> Void) {
        switch kind {
        case .memory:
            return (LocalFleetState(), {})
        case .redis:
            let prefix = "fleet-\(UInt64.random(in: 0...UInt64.max)):"
            let grants = RedisGrantStore(
                client: try SharedRedis.client(), prefix: prefix, settings: Scenario.builtIn.settings,
                identifiers: IdentifierGenerator(random: SeededRandomSource(seed: 1)))
            return (RedisFleetState(client: try SharedRedis.client(), prefix: prefix), { try grants.removeAll() })
        }
    }

    @Test(arguments: StoreKind.tested)
    func publishedStatesAreReadBackWithTheirStamps(_ kind: StoreKind) throws {
        let (state, _) = try Self.make(kind)
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

    @Test(arguments: StoreKind.tested)
    func aTimelineRunIsJoinedCountedAndEachEntryClaimedOnce(_ kind: StoreKind) throws {
        let (state, removeAll) = try Self.make(kind)
        let first = FleetTimelineRun.new(startMilliseconds: 1_000)
        #expect(try state.timelineRun(proposing: first, replacing: false) == first, "the first replica starts it")
        let late = FleetTimelineRun.new(startMilliseconds: 9_000)
        #expect(try state.timelineRun(proposing: late, replacing: false) == first, "a later one joins it")
        let entries = [TimelineEngine.Pending(index: 0, threshold: 2), TimelineEngine.Pending(index: 3, threshold: 1)]
        #expect(
            try state.countTimeline(generation: first.generation, entries: entries)
                == [FleetTimelineCount(count: 1, claimed: false), FleetTimelineCount(count: 1, claimed: true)])
        #expect(
            try state.countTimeline(generation: first.generation, entries: entries)
                == [FleetTimelineCount(count: 2, claimed: true), FleetTimelineCount(count: 2, claimed: false)])
        #expect(try state.claimTimelineEntry(generation: first.generation, index: 5))
        #expect(try !state.claimTimelineEntry(generation: first.generation, index: 5), "claimed once")
        #expect(
            try state.timelineProgress(generation: first.generation) == (first, [3, 0, 5]),
            "in the order they fired, which a replica joining later replays")
        #expect(try state.timelineProgress(generation: late.generation).fired.isEmpty, "runs do not share entries")
        // A reset starts a new run over the old one.
        #expect(try state.timelineRun(proposing: late, replacing: true) == late)
        #expect(try state.timelineProgress(generation: late.generation).run == late)
        try removeAll()
        if kind == .redis { #expect(try state.timelineProgress(generation: late.generation).run == nil) }
    }

    /// The user changes of entries are made in the order they fired, also when two replicas fired them a
    /// moment apart: an entry waits while one fired before it is unfinished.
    @Test(arguments: StoreKind.tested)
    func anEntryIsUnfinishedUntilEveryEntryFiredBeforeItFinished(_ kind: StoreKind) throws {
        let (state, removeAll) = try Self.make(kind)
        let run = FleetTimelineRun.new(startMilliseconds: 1_000)
        #expect(try state.claimTimelineEntry(generation: run.generation, index: 3))
        #expect(try state.claimTimelineEntry(generation: run.generation, index: 0))
        #expect(try state.claimTimelineEntry(generation: run.generation, index: 7))
        #expect(try !state.timelineEntriesUnfinished(generation: run.generation, before: 3), "the first waits for none")
        #expect(try state.timelineEntriesUnfinished(generation: run.generation, before: 0), "3 fired before 0")
        try state.finishTimelineEntry(generation: run.generation, index: 3)
        #expect(try !state.timelineEntriesUnfinished(generation: run.generation, before: 0))
        #expect(try state.timelineEntriesUnfinished(generation: run.generation, before: 7), "0 is unfinished")
        try state.finishTimelineEntry(generation: run.generation, index: 0)
        #expect(try !state.timelineEntriesUnfinished(generation: run.generation, before: 7))
        #expect(try !state.timelineEntriesUnfinished(generation: run.generation, before: 5), "not fired: no wait")
        try removeAll()
    }

    @Test(arguments: StoreKind.tested)
    func aHundredConcurrentCountsClaimAnEntryExactlyOnce(_ kind: StoreKind) throws {
        let (state, removeAll) = try Self.make(kind)
        defer { try? removeAll() }
        let run = try state.timelineRun(proposing: .new(startMilliseconds: 0), replacing: false)
        let claims = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 100) { _ in
            let counted = try? state.countTimeline(
                generation: run.generation, entries: [TimelineEngine.Pending(index: 1, threshold: 50)])
            if counted?.first?.claimed == true { claims.withLock { $0 += 1 } }
        }
        #expect(claims.withLock { $0 } == 1)
        #expect(
            try state.countTimeline(generation: run.generation, entries: [.init(index: 1, threshold: 50)]).first?.count
                == 101)
    }

    @Test func aTimelineRunTextIsReadBackAndGarbageRefused() {
        let run = FleetTimelineRun(generation: "9f3a", startMilliseconds: 5)
        #expect(FleetTimelineRun(text: run.text) == run)
        // A start outside the control API's clock range (years 1970 to 9999) is refused: adding an
        // entry's offset to it trapped (issue #21).
        let outside = ["abc 9223372036854775807", "abc -9223372036854775808", "abc -1", "abc 253402300800000"]
        for garbage in ["", "9f3a", "9f3a x", "zz 1", "9f3a 1 2", " 1", String(repeating: "a", count: 33) + " 1"]
            + outside
        {
            #expect(FleetTimelineRun(text: garbage) == nil, "\(garbage)")
        }
    }

    @Test(.enabled(if: RedisServerBinary.found)) func redisStateIsSharedByReplicasAndItsStampsNeverRepeatAfterAReset()
        throws
    {
        let (state, removeAll) = try Self.make(.redis)
        let other = RedisFleetState(
            client: RedisClient(endpoint: try RedisEndpoint(url: try SharedRedis.server().url)),
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

    @Test(arguments: StoreKind.tested)
    func userChangesAreReadInOrderFromACursor(_ kind: StoreKind) throws {
        let (state, removeAll) = try Self.make(kind)
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

    @Test(arguments: StoreKind.tested)
    func faultCountersDecideLikeTheEngineAndReset(_ kind: StoreKind) throws {
        let (state, _) = try Self.make(kind)
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
