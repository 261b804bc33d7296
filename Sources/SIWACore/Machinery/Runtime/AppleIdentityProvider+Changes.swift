/// The core of every runtime change: copy, change, validate, rebuild, swap — under the one lock.
import ScenarioModel

extension AppleIdentityProvider {
    /// Registers a handler for user events (consent revoked, forwarding switched, account deleted).
    /// Handlers run after the change is applied, outside the provider's lock, on the caller's thread.
    package func observeUserEvents(_ handler: @escaping @Sendable (UserEvent) -> Void) {
        observers.withLock { $0.append(handler) }
    }

    func emit(_ events: [UserEvent]) {
        guard !events.isEmpty else { return }
        let handlers = observers.withLock { $0 }
        for event in events {
            for handler in handlers { handler(event) }
        }
    }

    /// Applies `transform` to a copy of the current scenario, validates the result and swaps in a new
    /// snapshot; then `commit` runs (still under the lock) for store changes that must go with it.
    /// On any error nothing changes. `rebuildKeys` re-parses key material (key changes).
    func change<Output: Sendable>(
        rebuildKeys: Bool = false,
        _ transform: (inout Scenario, ProviderSnapshot) throws(ProviderChangeError) -> Output,
        commit: (Output, ProviderSnapshot) -> Void = { _, _ in }
    ) throws(ProviderChangeError) -> Output {
        let outcome: Result<Output, ProviderChangeError> = runtime.withLock { state in
            do throws(ProviderChangeError) {
                let current = state.snapshot
                var scenario = current.scenario
                let output = try transform(&scenario, current)
                try Self.check(scenario)
                let next: ProviderSnapshot
                if rebuildKeys {
                    do throws(ScenarioKeyError) {
                        next = try ProviderSnapshot(
                            scenario: scenario, clock: clock, store: current.store, identifiers: current.identifiers)
                    } catch {
                        throw ProviderChangeError(.invalid, field: error.path, error.message)
                    }
                } else {
                    next = current.replacingUsers(in: scenario, clock: clock)
                }
                state.snapshot = next
                commit(output, next)
                return .success(output)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// A change of users only: `transform` edits the scenario's users and keeps the `UserIndex` in
    /// step, checking what it changes itself (`Scenario.problems(ofUser:at:)`, uniqueness through the
    /// index). Nothing else is revalidated, and the user list and index are persistent structures
    /// (`UserList`, `UserIndex`): the new snapshot copies one path of each and shares the rest with the
    /// previous one, which readers may still hold. A user change costs O(log n).
    func changeUsers<Output: Sendable>(
        _ transform: (inout Scenario, inout UserIndex) throws(ProviderChangeError) -> Output,
        commit: (Output, ProviderSnapshot) -> Void = { _, _ in }
    ) throws(ProviderChangeError) -> Output {
        let outcome: Result<Output, ProviderChangeError> = runtime.withLock { state in
            do throws(ProviderChangeError) {
                var scenario = state.snapshot.scenario
                var users = state.snapshot.users
                let output = try transform(&scenario, &users)
                state.snapshot = state.snapshot.replacingUsers(in: scenario, users: users, clock: clock)
                commit(output, state.snapshot)
                return .success(output)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Every validation problem of `scenario` as one `invalid` error naming the first path.
    static func check(_ scenario: Scenario) throws(ProviderChangeError) {
        try check(scenario.validate())
    }

    /// `problems` (if any) as one `invalid` error naming the first path.
    static func check(_ problems: [ScenarioProblem]) throws(ProviderChangeError) {
        guard let first = problems.first else { return }
        throw ProviderChangeError(.invalid, field: first.path, problems.map(\.description).joined(separator: "; "))
    }
}
