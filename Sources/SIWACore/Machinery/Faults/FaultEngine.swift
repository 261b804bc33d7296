import Locking
import ScenarioModel
import Synchronization

/// The fault rules of the running scenario with their counters: one owner of that state, deciding per
/// request which rule (if any) fires. Pure logic — the HTTP layer turns a decision into bytes.
///
/// Thread-safe: rules, counters and the seeded generator live behind one lock.
package final class FaultEngine: Sendable {
    struct RuleState: Sendable {
        var rule: FaultRule
        /// Requests that matched the rule's filters (inside its window, while enabled).
        var matched: Int = 0
        var fired: Int = 0
    }

    struct State: Sendable {
        var rules: [RuleState]
        var random: SplitMix64
        var startMilliseconds: Int64
    }

    private let state: Lock<State>
    /// Whether any rule exists, stored under `state`'s lock whenever the rules change: read without
    /// the lock by `isIdle` (`FaultStage` skips all fault work with one load when there is none).
    private let anyRule = Atomic<Bool>(false)
    /// With a shared store: where rules with `times` or `after` are counted fleet-wide (`decideShared`).
    package let fleet: (any FleetState)?

    /// - Parameters:
    ///   - seed: the scenario seed (probabilities and delay ranges are then reproducible).
    ///   - startMilliseconds: mock-clock time at load; rule windows are relative to it.
    ///   - fleet: counts rules with `times` or `after` across replicas; nil counts in this process.
    package init(
        rules: [FaultRule] = [], seed: UInt64? = nil, startMilliseconds: Int64 = 0, fleet: (any FleetState)? = nil
    ) {
        self.fleet = fleet
        state = Lock(
            State(
                rules: rules.map { RuleState(rule: $0) }, random: Self.initialRandom(seed),
                startMilliseconds: startMilliseconds))
        anyRule.store(!rules.isEmpty, ordering: .releasing)
    }

    /// No rule at all, as of the last change: `decide` would answer nil without looking further. A
    /// rule added on another thread at this moment may be missed, as it may be by a `decide` that took
    /// the lock just before the rule was added.
    package var isIdle: Bool { !anyRule.load(ordering: .acquiring) }

    /// Without a scenario seed the stream starts from the OS generator (`getrandom`, through the standard
    /// library's `SystemRandomNumberGenerator`): it only picks which requests a probabilistic rule hits, and
    /// the first draw from OpenSSL's DRBG would instantiate it (an AES-CTR fetch, about 5 % of a start's
    /// CPU in issue #26's profile) before the server could answer its first request.
    static func initialRandom(_ seed: UInt64?) -> SplitMix64 {
        var system = SystemRandomNumberGenerator()
        return SplitMix64(seed: seed.map { $0 ^ 0x6661_756C_7473 } ?? system.next())
    }

    /// Replaces every rule and counter (scenario reload).
    package func replace(rules: [FaultRule], seed: UInt64?, startMilliseconds: Int64) {
        state.withLock {
            $0 = State(
                rules: rules.map { RuleState(rule: $0) }, random: Self.initialRandom(seed),
                startMilliseconds: startMilliseconds)
            anyRule.store(!rules.isEmpty, ordering: .releasing)
        }
    }

    /// The first rule that fires for `request`, with its drawn delay; counters are updated.
    ///
    /// Per rule, in order: enabled → inside its window → filters match (counted as `matched`, by every
    /// matching rule) → no earlier rule fired → past `after` → under `times` → probability draw (counted
    /// as `fired` when it hits).
    package func decide(
        _ request: RequestFacts, nowMilliseconds: Int64, resolveUser: () -> String?
    ) -> FaultDecision? {
        // nil: no rule at all, the usual case, answered with one lock.
        let needsUser = state.withLock { state -> Bool? in
            state.rules.isEmpty ? nil : state.rules.contains { $0.rule.enabled && $0.rule.matcher.userID != nil }
        }
        guard let needsUser else { return nil }
        let resolved = needsUser ? resolveUser() : nil
        let user = { resolved }
        return state.withLock { state -> FaultDecision? in
            let offset = nowMilliseconds - state.startMilliseconds
            var decision: FaultDecision?
            for index in state.rules.indices {
                let rule = state.rules[index].rule
                guard rule.enabled, rule.isEligible(for: request), rule.window?.contains(offset) ?? true else {
                    continue
                }
                guard rule.matcher.matches(request, resolveUser: user) else { continue }
                // Every matching rule counts the request, even when an earlier rule answers it.
                state.rules[index].matched += 1
                guard decision == nil, state.rules[index].matched > rule.after else { continue }
                if let times = rule.times, state.rules[index].fired >= times { continue }
                if rule.probability < 1 {
                    guard state.random.nextUnitInterval() < rule.probability else { continue }
                }
                state.rules[index].fired += 1
                decision = Self.decision(for: rule, random: &state.random)
            }
            return decision
        }
    }

    /// The decision for a firing rule, with its delay drawn.
    static func decision(for rule: FaultRule, random: inout SplitMix64) -> FaultDecision {
        var delay: Int64?
        if let range = rule.action.delay {
            let span = UInt64(range.maxMilliseconds - range.minMilliseconds)
            delay = range.minMilliseconds + (span == 0 ? 0 : Int64(random.next() % (span + 1)))
        }
        return FaultDecision(ruleID: rule.id, action: rule.action, delayMilliseconds: delay)
    }

    /// `decide`, with the counters of rules that have `times` or `after` kept fleet-wide: when such a
    /// rule matches, every matching rule is counted and the decision taken in one step of the shared
    /// store (so `times: 2` fires twice across replicas). The probability of each matching rule is drawn
    /// here first. Without a fleet, or when no counted rule matches, this is `decide`.
    /// - Throws: `StoreUnavailable` when the store cannot count; nothing fired and nothing was counted here.
    package func decideShared(
        _ request: RequestFacts, nowMilliseconds: Int64, resolveUser: () -> String?
    ) throws(StoreUnavailable) -> FaultDecision? {
        guard let fleet else { return decide(request, nowMilliseconds: nowMilliseconds, resolveUser: resolveUser) }
        // nil: no rule at all, the usual case, answered with one lock.
        let needsUser = state.withLock { state -> Bool? in
            state.rules.isEmpty ? nil : state.rules.contains { $0.rule.enabled && $0.rule.matcher.userID != nil }
        }
        guard let needsUser else { return nil }
        let resolved = needsUser ? resolveUser() : nil
        let matching = state.withLock { state -> [(rule: FaultRule, hit: Bool)] in
            let offset = nowMilliseconds - state.startMilliseconds
            return state.rules.filter { entry in
                entry.rule.enabled && entry.rule.isEligible(for: request)
                    && (entry.rule.window?.contains(offset) ?? true)
                    && entry.rule.matcher.matches(request, resolveUser: { resolved })
            }.map { entry in
                (entry.rule, entry.rule.probability >= 1 || state.random.nextUnitInterval() < entry.rule.probability)
            }
        }
        guard matching.contains(where: { $0.rule.times != nil || $0.rule.after > 0 }) else {
            return decide(request, nowMilliseconds: nowMilliseconds, resolveUser: { resolved })
        }
        let outcome = try fleet.countFaults(
            matching.map {
                FleetFaultCount(ruleID: $0.rule.id, after: $0.rule.after, times: $0.rule.times, drawHit: $0.hit)
            })
        return state.withLock { state -> FaultDecision? in
            for (position, match) in matching.enumerated() where position < outcome.counts.count {
                guard let index = state.rules.firstIndex(where: { $0.rule.id == match.rule.id }) else { continue }
                state.rules[index].matched = outcome.counts[position].matched
                state.rules[index].fired = outcome.counts[position].fired
            }
            guard let firing = outcome.firing, firing < matching.count else { return nil }
            return Self.decision(for: matching[firing].rule, random: &state.random)
        }
    }

    /// `resetCounters`, and the fleet-wide counters too.
    package func resetSharedCounters(id: String? = nil) throws(StoreUnavailable) {
        let ids = state.withLock { $0.rules.map(\.rule.id).filter { id == nil || $0 == id } }
        try fleet?.resetFaultCounters(ids)
        resetCounters(id: id)
    }

    /// Adds a rule at the end. - Throws: `ProviderChangeError.conflict` when the id is taken.
    package func add(_ rule: FaultRule) throws(ProviderChangeError) {
        let refusal = state.withLock { state -> ProviderChangeError? in
            if state.rules.contains(where: { $0.rule.id == rule.id }) {
                return ProviderChangeError(.conflict, field: "id", "a fault with id '\(rule.id)' already exists")
            }
            if state.rules.count >= Self.maximumRules {
                return ProviderChangeError(
                    .conflict, field: "id", "at most \(Self.maximumRules) fault rules; delete some first")
            }
            state.rules.append(RuleState(rule: rule))
            anyRule.store(true, ordering: .releasing)
            return nil
        }
        if let refusal { throw refusal }
    }

    /// The most rules the engine holds (docs/limits.md).
    package static let maximumRules = 256

    /// Removes a rule; false when there is none with that id.
    @discardableResult
    package func remove(id: String) -> Bool {
        state.withLock { state in
            guard let index = state.rules.firstIndex(where: { $0.rule.id == id }) else { return false }
            state.rules.remove(at: index)
            anyRule.store(!state.rules.isEmpty, ordering: .releasing)
            return true
        }
    }

    /// Switches a rule on or off (timeline `start_fault`/`stop_fault`); false for an unknown id.
    @discardableResult
    package func setEnabled(id: String, _ enabled: Bool) -> Bool {
        state.withLock { state in
            guard let index = state.rules.firstIndex(where: { $0.rule.id == id }) else { return false }
            state.rules[index].rule.enabled = enabled
            return true
        }
    }

    /// Sets every rule's (or one rule's) counters back to zero.
    package func resetCounters(id: String? = nil) {
        state.withLock { state in
            for index in state.rules.indices where id == nil || state.rules[index].rule.id == id {
                state.rules[index].matched = 0
                state.rules[index].fired = 0
            }
        }
    }

    /// Every rule with its counters, in evaluation order.
    package var statuses: [FaultStatus] {
        state.withLock { $0.rules.map { FaultStatus(rule: $0.rule, matched: $0.matched, fired: $0.fired) } }
    }
}

/// A rule that fired: what to do, and the delay drawn for it.
package struct FaultDecision: Sendable, Equatable {
    package var ruleID: String
    package var action: FaultAction
    package var delayMilliseconds: Int64?
}

/// A rule and its counters, as `GET /mock/faults` shows them.
package struct FaultStatus: Sendable, Equatable {
    package var rule: FaultRule
    package var matched: Int
    package var fired: Int

    package init(rule: FaultRule, matched: Int, fired: Int) {
        self.rule = rule
        self.matched = matched
        self.fired = fired
    }
}
