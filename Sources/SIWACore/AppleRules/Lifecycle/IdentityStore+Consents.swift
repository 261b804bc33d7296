/// Whether a user's authorization of an app group is live, was ended, or never existed.
package enum ConsentStatus: Sendable, Equatable {
    case active
    /// Ended by revocation, `/auth/revoke` or account deletion.
    case revoked
    case none
}

extension IdentityStore {
    package func consentStatus(userID: String, consentGroupID: String) -> ConsentStatus {
        let key = ConsentKey(userID: userID, groupID: consentGroupID)
        return state.withLock { state in
            if state.consents[key] != nil { return .active }
            return state.endedConsents.contains(key) ? .revoked : .none
        }
    }

    /// The app groups the user has authorized (and, optionally, those whose authorization ended), sorted.
    package func consentGroupIDs(userID: String, includingRevoked: Bool = false) -> [String] {
        state.withLock { state in
            (state.groupsByUser[userID] ?? []).filter { group in
                let key = ConsentKey(userID: userID, groupID: group)
                return state.consents[key] != nil || (includingRevoked && state.endedConsents.contains(key))
            }.sorted()
        }
    }

    /// Ends every authorization of the user (revocation in Settings, account deletion), codes and tokens
    /// of groups without a stored consent included; returns the groups that had a live consent. Costs
    /// O(the user's grants).
    @discardableResult
    package func endAllAuthorizations(userID: String) -> [String] {
        state.withLock { state in
            let keys = (state.groupsByUser[userID] ?? []).map { ConsentKey(userID: userID, groupID: $0) }
            let consented = keys.filter { state.consents[$0] != nil }.map(\.groupID)
            for key in keys { state.endAuthorization(key) }
            return consented.sorted()
        }
    }

    /// The user a code, refresh token or access token was issued for (journal: "resolved user").
    package func userID(forToken token: String) -> String? {
        state.withLock { state in
            state.codes[token]?.grant.userID ?? state.refreshTokens[token]?.grant.userID
                ?? state.accessTokens[token]?.grant?.userID
        }
    }
}
