import ScenarioModel

extension IdentityStore {
    /// Starts users with `consentedScopes` as returning: consent recorded in every consent group (app
    /// groups and ungrouped clients), so their next sign-in is not a first one and `user` is not sent.
    package func seedReturningUsers(of scenario: Scenario, now: Int64) {
        let groups = Set(scenario.clients.map { scenario.consentGroupID(forClient: $0.id) })
        let returning = scenario.users.filter { $0.consentedScopes != nil && $0.credentialState == .authorized }
        guard !returning.isEmpty else { return }
        state.withLock { state in
            for user in returning {
                for group in groups {
                    state.grantConsent(
                        ConsentKey(userID: user.id, groupID: group),
                        ConsentRecord(scopes: user.consentedScopes ?? [], grantedAt: now))
                }
            }
        }
    }
}
