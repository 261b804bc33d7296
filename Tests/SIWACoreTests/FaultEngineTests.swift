import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

@Suite struct FaultEngineTests {
    let token = RequestFacts(
        method: "POST", path: "/auth/token", fields: [("grant_type", "refresh_token"), ("client_id", "web")])
    let keys = RequestFacts(method: "GET", path: "/auth/keys", fields: [])

    func rule(
        _ id: String, after: Int = 0, times: Int? = nil, probability: Double = 1, window: FaultRule.TimeWindow? = nil
    ) -> FaultRule {
        FaultRule(
            id: id, matcher: RequestMatcher(method: "POST", path: "/auth/token"), after: after, times: times,
            probability: probability, window: window, action: FaultAction(response: FaultResponse(status: 503)))
    }

    func fired(_ engine: FaultEngine, _ request: RequestFacts, at now: Int64 = 0) -> String? {
        engine.decide(request, nowMilliseconds: now, resolveUser: { nil })?.ruleID
    }

    @Test func afterSkipsAndTimesLimits() {
        let engine = FaultEngine(rules: [rule("r", after: 1, times: 2)], seed: 1)
        #expect(
            [fired(engine, token), fired(engine, token), fired(engine, token), fired(engine, token)] == [
                nil, "r", "r", nil,
            ])
        #expect(fired(engine, keys) == nil)
        #expect(engine.statuses[0].matched == 4 && engine.statuses[0].fired == 2)
        engine.resetCounters()
        #expect(engine.statuses[0].matched == 0)
        #expect([fired(engine, token), fired(engine, token)] == [nil, "r"])
    }

    @Test func firstFiringRuleWinsInOrder() {
        let engine = FaultEngine(rules: [rule("once", times: 1), rule("always")], seed: 1)
        #expect([fired(engine, token), fired(engine, token)] == ["once", "always"])
        #expect(engine.statuses.map(\.fired) == [1, 1])
    }

    @Test func probabilityIsReproducibleWithASeedAndRoughlyRight() {
        func run(seed: UInt64) -> [Bool] {
            let engine = FaultEngine(rules: [rule("p", probability: 0.25)], seed: seed)
            return (0..<400).map { _ in fired(engine, token) != nil }
        }
        let first = run(seed: 9)
        #expect(first == run(seed: 9))
        #expect(first != run(seed: 10))
        let hits = first.filter { $0 }.count
        #expect(hits > 60 && hits < 140, "\(hits) of 400 at p=0.25")
    }

    @Test func windowIsRelativeToLoadTime() {
        let engine = FaultEngine(
            rules: [rule("w", window: .init(fromMilliseconds: 60_000, untilMilliseconds: 120_000))],
            startMilliseconds: 1_000_000)
        #expect(fired(engine, token, at: 1_059_999) == nil)
        #expect(fired(engine, token, at: 1_060_000) == "w")
        #expect(fired(engine, token, at: 1_120_000) == nil)
    }

    @Test func userAndFieldFiltersAndEnableSwitch() {
        var filtered = rule("u")
        filtered.matcher.fields = ["grant_type": "refresh_token"]
        filtered.matcher.userID = "alice"
        let engine = FaultEngine(rules: [filtered])
        #expect(engine.decide(token, nowMilliseconds: 0, resolveUser: { "bob" }) == nil)
        #expect(engine.decide(token, nowMilliseconds: 0, resolveUser: { "alice" })?.ruleID == "u")
        #expect(engine.setEnabled(id: "u", false))
        #expect(engine.decide(token, nowMilliseconds: 0, resolveUser: { "alice" }) == nil)
        #expect(!engine.setEnabled(id: "nope", true))
    }

    @Test func addRejectsDuplicateIdsAndRemoveWorks() throws {
        let engine = FaultEngine(rules: [rule("a")])
        #expect(throws: ProviderChangeError.self) { try engine.add(rule("a")) }
        try engine.add(rule("b"))
        #expect(engine.remove(id: "a") && !engine.remove(id: "a"))
        #expect(engine.statuses.map(\.rule.id) == ["b"])
    }

    @Test func delayRangeIsDrawnWithinBounds() {
        let engine = FaultEngine(
            rules: [
                FaultRule(id: "d", action: FaultAction(delay: DelayRange(minMilliseconds: 10, maxMilliseconds: 20)))
            ], seed: 3)
        let delays = (0..<50).compactMap { _ in
            engine.decide(keys, nowMilliseconds: 0, resolveUser: { nil })?.delayMilliseconds
        }
        #expect(delays.count == 50 && delays.allSatisfy { (10...20).contains($0) } && Set(delays).count > 1)
    }
}

@Suite struct TimelineEngineTests {
    let refresh = RequestFacts(method: "POST", path: "/auth/token", fields: [("grant_type", "refresh_token")])

    @Test func timeTriggersFireOnceWhenDue() {
        let engine = TimelineEngine(
            entries: [TimelineEntry(trigger: .at(milliseconds: 600_000), actions: [.startFault(id: "f")])],
            startMilliseconds: 1_000)
        #expect(engine.dueActions(nowMilliseconds: 600_999).isEmpty)
        #expect(engine.dueActions(nowMilliseconds: 601_000) == [.startFault(id: "f")])
        #expect(engine.dueActions(nowMilliseconds: 900_000).isEmpty)
    }

    @Test func requestTriggersFireAfterTheNthMatch() {
        let matcher = RequestMatcher(
            method: "POST", path: "/auth/token", fields: ["grant_type": "refresh_token"], userID: "alice")
        let engine = TimelineEngine(entries: [
            TimelineEntry(trigger: .afterRequests(count: 2, matcher: matcher), actions: [.deleteUser("alice")])
        ])
        #expect(engine.recordRequest(refresh, resolveUser: { "bob" }).isEmpty)
        #expect(engine.recordRequest(refresh, resolveUser: { "alice" }).isEmpty)
        #expect(engine.recordRequest(refresh, resolveUser: { "alice" }) == [.deleteUser("alice")])
        #expect(engine.recordRequest(refresh, resolveUser: { "alice" }).isEmpty)
        #expect(engine.firedCount == 1 && !engine.hasRequestTriggers)
    }
}

extension FaultEngineTests {
    @Test func laterRulesCountRequestsAnsweredByEarlierOnes() {
        let engine = FaultEngine(rules: [rule("first", times: 1), rule("second", after: 1, times: 1)], seed: 1)
        #expect([fired(engine, token), fired(engine, token), fired(engine, token)] == ["first", "second", nil])
        #expect(engine.statuses.map(\.matched) == [3, 3])
    }
}
