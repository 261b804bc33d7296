/// Whole-state runtime operations: reset and scenario replacement.
import ScenarioModel

extension AppleIdentityProvider {
    /// The clock, when it can be moved at runtime (`AdjustableClock`, `ManualClock`).
    package var controllableClock: (any ControllableClock)? { clock as? any ControllableClock }

    /// The scenario `reset()` returns to.
    package var initialScenario: Scenario { runtime.withLock { $0.initialScenario } }

    /// Back to the scenario's initial state: users and keys as loaded, no codes, tokens or consents,
    /// identifiers reseeded (reproducible runs stay reproducible), the clock as at start.
    package func reset() {
        runtime.withLock { state in
            // The initial scenario's keys parsed once already, so this cannot fail.
            state.snapshot = try! Self.makeSnapshot(
                scenario: state.initialScenario, clock: clock, random: injectedRandom, limits: limits,
                storeFactory: storeFactory, clearing: true)
            state.deletions = DeletedAccounts()
        }
        controllableClock?.reset(initialMilliseconds: initialClockMilliseconds)
    }

    /// Replaces the active scenario atomically (a fresh state, as after `reset()`), or throws every
    /// problem and leaves the old scenario untouched.
    package func replaceScenario(_ scenario: Scenario) throws(ProviderChangeError) {
        try Self.check(scenario)
        let snapshot: ProviderSnapshot
        do throws(ScenarioKeyError) {
            snapshot = try Self.makeSnapshot(
                scenario: scenario, clock: clock, random: injectedRandom, limits: limits, storeFactory: storeFactory,
                clearing: true)
        } catch {
            throw ProviderChangeError(.invalid, field: error.path, error.message)
        }
        runtime.withLock { state in
            state.snapshot = snapshot
            state.initialScenario = scenario
            state.deletions = DeletedAccounts()
        }
        controllableClock?.reset(initialMilliseconds: initialClockMilliseconds)
    }
}
