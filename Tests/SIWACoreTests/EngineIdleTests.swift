import SIWACore
import ScenarioModel
import Testing

/// `FaultEngine.isIdle` and `TimelineEngine.isIdle` (one atomic load each, read by the pipeline to skip
/// fault and timeline work) agree with the engines' locked state after every operation of generated
/// sequences.
@Suite struct EngineIdleTests {
    /// The cases are the same on every run (`UserListTests.Steps`, the suite's deterministic generator).
    typealias Draws = UserListTests.Steps

    func rule(_ id: String) -> FaultRule {
        FaultRule(
            id: id, matcher: RequestMatcher(method: "POST", path: "/auth/token"), after: 0, times: nil,
            probability: 1, window: nil, action: FaultAction(response: FaultResponse(status: 503)))
    }

    @Test func faultEngineIsIdleExactlyWithoutRules() throws {
        for seed in 1...40 {
            var draws = Draws(state: UInt64(seed))
            let engine = FaultEngine(rules: (0..<draws.next(2)).map { rule("r\($0)") }, seed: 1)
            #expect(engine.isIdle == engine.statuses.isEmpty)
            for _ in 0..<60 {
                let id = "r\(draws.next(4))"
                switch draws.next(5) {
                case 0: try? engine.add(rule(id))
                case 1: engine.remove(id: id)
                case 2:
                    engine.replace(rules: (0..<draws.next(3)).map { rule("r\($0)") }, seed: nil, startMilliseconds: 0)
                case 3: engine.setEnabled(id: id, draws.next(2) == 0)
                default:
                    _ = engine.decide(
                        RequestFacts(method: "POST", path: "/auth/token", fields: []), nowMilliseconds: 0,
                        resolveUser: { nil })
                }
                #expect(engine.isIdle == engine.statuses.isEmpty, "seed \(seed)")
            }
        }
    }

    @Test func timelineEngineIsIdleExactlyWhenEveryEntryFired() {
        let request = RequestFacts(method: "POST", path: "/auth/token", fields: [])
        func entries(_ draws: inout Draws) -> [TimelineEntry] {
            (0..<draws.next(4)).map { index in
                index % 2 == 0
                    ? TimelineEntry(trigger: .at(milliseconds: Int64(draws.next(5)) * 100), actions: [])
                    : TimelineEntry(
                        trigger: .afterRequests(
                            count: 1 + draws.next(3), matcher: RequestMatcher(method: "POST", path: "/auth/token")),
                        actions: [.startFault(id: "f")])
            }
        }
        for seed in 1...40 {
            var draws = Draws(state: UInt64(seed))
            let engine = TimelineEngine(entries: entries(&draws), startMilliseconds: 0)
            #expect(engine.isIdle == !engine.hasPendingEntries)
            for _ in 0..<60 {
                switch draws.next(6) {
                case 0: _ = engine.dueEntries(nowMilliseconds: Int64(draws.next(6)) * 100)
                case 1: _ = engine.recordRequest(request, resolveUser: { nil })
                case 2: _ = engine.markFired(draws.next(4))
                case 3: engine.unmarkFired(draws.next(4))
                case 4: engine.restart(startMilliseconds: Int64(draws.next(3)) * 100)
                default: engine.replace(entries: entries(&draws), startMilliseconds: 0)
                }
                #expect(engine.isIdle == !engine.hasPendingEntries, "seed \(seed)")
            }
        }
    }
}
