/// Everything the provider derives from its current scenario, swapped as one value so that a runtime
/// change (a user edit, a key rotation, a scenario replacement) is all-or-nothing.
///
/// Readers take one snapshot per call site; a change never leaves a half-updated provider visible.
import ScenarioModel

package struct ProviderSnapshot: Sendable {
    /// The scenario as changed at runtime (users, keys, …).
    package let scenario: Scenario
    /// Parsed key material of `scenario` (id_token signer, JWKS bytes, client-secret keys).
    package let keys: ScenarioKeys
    package let clientSecrets: ClientSecretValidator
    package let idTokens: IDTokenMaker
    /// The hostile-Apple seam: only a firing `tamper:` fault rule passes a token through it.
    package var tamperer: TokenTamperer { TokenTamperer(scenario: scenario, keys: keys) }
    package let authorizationRequests: AuthorizationRequestValidator
    /// Consents, codes and tokens; replaced only by `reset()` and `replaceScenario(_:)`.
    package let store: any GrantStore
    package let identifiers: IdentifierGenerator
    /// `scenario.users` by id, sub and relay address.
    let users: UserIndex
    /// `/.well-known/openid-configuration` with this scenario's `issuer`, serialized once.
    let discovery = DiscoveryCache()

    /// Derives everything from `scenario`, reusing `keys` when the caller already parsed them.
    ///
    /// - Throws: `ScenarioKeyError` when a PEM cannot be parsed.
    init(
        scenario: Scenario, keys: ScenarioKeys? = nil, clock: any SIWAClock, store: any GrantStore,
        identifiers: IdentifierGenerator, users: UserIndex? = nil
    ) throws(ScenarioKeyError) {
        let parsed: ScenarioKeys
        if let keys { parsed = keys } else { parsed = try ScenarioKeys(loading: scenario) }
        self.scenario = scenario
        self.keys = parsed
        self.clientSecrets = ClientSecretValidator(scenario: scenario, keys: parsed, clock: clock)
        self.idTokens = IDTokenMaker(settings: scenario.settings, keys: parsed)
        self.authorizationRequests = AuthorizationRequestValidator(scenario: scenario)
        self.store = store
        self.identifiers = identifiers
        self.users = users ?? UserIndex(scenario)
    }

    /// The user with this scenario id, in O(log n).
    package func user(id: String) -> UserProfile? { users.positions[id].map { scenario.users[$0] } }

    /// The user and team behind a relay address (case-insensitive), across every team's view of every
    /// user with a relay address, in O(log n) through the index (no scan of the users).
    package func relayRecipient(forAddress address: String) -> RelayRecipient? {
        guard let (holder, position) = users.relayHolder(ofAddress: address) else { return nil }
        let user = scenario.users[position]
        guard let relay = scenario.relayEmail(of: user, inTeam: holder.teamID) else { return nil }
        return RelayRecipient(relayAddress: relay, teamID: holder.teamID, user: user)
    }

    /// Relay addresses the index holds, one per user with a relay address and team (tests: the index
    /// follows user changes).
    package var indexedRelayAddressCount: Int { users.relayHolderCount }

    /// Nodes of the user list and index that `other` does not share (all of them when nil): tests check
    /// that a user change copies one path, not the tables.
    package func userTablesNotShared(with other: ProviderSnapshot?) -> Int {
        let empty = UserList([])
        return scenario.users.nodesNotShared(with: other?.scenario.users ?? empty)
            + users.nodesNotShared(with: other?.users ?? UserIndex(Scenario()))
    }

    /// The same snapshot with a changed scenario whose keys and teams are unchanged (user edits):
    /// no PEM is parsed again.
    /// `users` is the index of `scenario.users` when the caller kept it in step (user changes).
    func replacingUsers(in scenario: Scenario, users: UserIndex? = nil, clock: any SIWAClock) -> ProviderSnapshot {
        // Keys are reused; ScenarioKeys(loading:) cannot fail here because nothing key-related changed.
        try! ProviderSnapshot(
            scenario: scenario, keys: keys, clock: clock, store: store, identifiers: identifiers, users: users)
    }
}
