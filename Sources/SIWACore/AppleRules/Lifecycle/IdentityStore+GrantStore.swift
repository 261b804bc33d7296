/// The in-memory store is the default `GrantStore`: its operations never throw.
import ScenarioModel

extension IdentityStore: GrantStore {
    package func tableCounts() -> Counts { counts }

    /// Always reachable.
    package var unavailableReason: String? { nil }

    /// Forgets everything (a fresh in-memory store is made instead on reset; this is for symmetry).
    package func removeAll() {
        state.withLock { $0 = State() }
    }
}

/// Makes the grant store of a new provider state (at start, on `reset()` and on scenario replacement)
/// without I/O; the provider then empties it on reset (`removeAll`) and seeds returning users.
package typealias GrantStoreFactory =
    @Sendable (_ scenario: Scenario, _ identifiers: IdentifierGenerator) -> any GrantStore

extension GrantStore {
    /// Table sizes for tests (a store that cannot answer is a test failure).
    package var counts: IdentityStore.Counts { try! tableCounts() }
}
