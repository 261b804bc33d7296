import Dispatch
import SIWACore
import SIWAServer
import SIWATestSupport
import Synchronization
import Testing

/// A clock change at B and B's poll applying an older published state must not interleave: the
/// differential test (bench/RESULTS.md) saw a clock advance answered 200 at B and then lost — the poll
/// had read the fleet's older clock, applied it after B's local change, and B published or kept the
/// older time. `FleetSync.exclusively` makes a change and its publication one step against the poll.
@Suite struct FleetChangeOrderTests {
    @Test func aPollHoldingAnOlderStateDoesNotUndoAChangeMadeMeanwhile() throws {
        let shared = SteeredFleetState(TestStore.fleetState())
        try FleetSyncTests.fleet(shared) { (a, b) throws in
            let start = b.clock.nowMilliseconds
            #expect(try a.call("POST", "/mock/clock", ["advance": "6m"]).status == 200)
            shared.holdNextRead()
            let polled = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                _ = try? b.server.fleet?.pull()
                polled.signal()
            }
            shared.waitUntilReadIsHeld()
            // B's own change while its poll holds the fleet's older clock (A's 6 minutes).
            let changed = DispatchSemaphore(value: 0)
            let status = Mutex(0)
            DispatchQueue.global().async {
                let answer = try? b.call("POST", "/mock/clock", ["advance": "1h"])
                status.withLock { $0 = answer?.status ?? 0 }
                changed.signal()
            }
            // Long enough for the change to finish first if nothing orders it after the poll (it takes
            // milliseconds; with the order in place it waits for the poll, and this wait times out).
            let finishedFirst = changed.wait(timeout: .now() + .milliseconds(1500)) == .success
            shared.releaseRead()
            polled.wait()
            if !finishedFirst { changed.wait() }
            #expect(status.withLock { $0 } == 200)
            #expect(b.clock.nowMilliseconds == start + 66 * 60_000, "A's 6 minutes and B's hour both count")
            _ = try a.server.fleet?.pull()
            #expect(a.clock.nowMilliseconds == b.clock.nowMilliseconds, "and the fleet agrees")
        }
    }
}

/// A fleet state that can hold one `read()` after taking its snapshot, until released, and refuse user
/// publications as an unreachable store would.
final class SteeredFleetState: FleetState {
    let base: any FleetState
    private let hold = Mutex(false)
    private let refusals = Mutex(0)
    private let held = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)

    init(_ base: any FleetState) { self.base = base }

    func holdNextRead() { hold.withLock { $0 = true } }
    /// The next `count` calls of `publishUser` throw `StoreUnavailable`.
    func refuseUserPublications(_ count: Int) { refusals.withLock { $0 = count } }
    func waitUntilReadIsHeld() { held.wait() }
    func releaseRead() { release.signal() }

    func read() throws(StoreUnavailable) -> FleetSnapshot {
        let snapshot = try base.read()
        if hold.withLock({ held in
            defer { held = false }
            return held
        }) {
            held.signal()
            release.wait()
        }
        return snapshot
    }
    func publish(_ topic: FleetTopic, value: String) throws(StoreUnavailable) -> String {
        try base.publish(topic, value: value)
    }
    func currentStamp() throws(StoreUnavailable) -> String? { try base.currentStamp() }
    func publishUser(id: String, text: String) throws(StoreUnavailable) -> FleetCursor {
        let refused = refusals.withLock { refusals in
            defer { refusals = max(0, refusals - 1) }
            return refusals > 0
        }
        if refused { throw StoreUnavailable("connection refused") }
        return try base.publishUser(id: id, text: text)
    }
    func userChanges(after cursor: FleetCursor?, limit: Int) throws(StoreUnavailable) -> (
        cursor: FleetCursor?, changes: [(id: String, text: String)]
    ) {
        try base.userChanges(after: cursor, limit: limit)
    }
    func countFaults(_ rules: [FleetFaultCount]) throws(StoreUnavailable) -> FleetFaultOutcome {
        try base.countFaults(rules)
    }
    func resetFaultCounters(_ ruleIDs: [String]) throws(StoreUnavailable) { try base.resetFaultCounters(ruleIDs) }
    func timelineRun(proposing run: FleetTimelineRun, replacing: Bool) throws(StoreUnavailable) -> FleetTimelineRun {
        try base.timelineRun(proposing: run, replacing: replacing)
    }
    func timelineProgress(generation: String) throws(StoreUnavailable) -> (run: FleetTimelineRun?, fired: [Int]) {
        try base.timelineProgress(generation: generation)
    }
    func countTimeline(generation: String, entries: [TimelineEngine.Pending]) throws(StoreUnavailable)
        -> [FleetTimelineCount]
    {
        try base.countTimeline(generation: generation, entries: entries)
    }
    func claimTimelineEntry(generation: String, index: Int) throws(StoreUnavailable) -> Bool {
        try base.claimTimelineEntry(generation: generation, index: index)
    }
    func finishTimelineEntry(generation: String, index: Int) throws(StoreUnavailable) {
        try base.finishTimelineEntry(generation: generation, index: index)
    }
    func timelineEntriesUnfinished(generation: String, before index: Int) throws(StoreUnavailable) -> Bool {
        try base.timelineEntriesUnfinished(generation: generation, before: index)
    }
}
