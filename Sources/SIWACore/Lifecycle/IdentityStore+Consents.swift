/// Whether a user's authorization of an app group is live, was ended, or never existed.
public enum ConsentStatus: Sendable, Equatable {
    case active
    /// Ended by revocation, `/auth/revoke` or account deletion.
    case revoked
    case none
}

extension IdentityStore {
    public func consentStatus(userID: String, consentGroupID: String) -> ConsentStatus {
        let key = ConsentKey(userID: userID, groupID: consentGroupID)
        return state.withLock { state in
            if state.consents[key] != nil { return .active }
            return state.endedConsents.contains(key) ? .revoked : .none
        }
    }

    /// The app groups the user has authorized (and, optionally, those whose authorization ended), sorted.
    public func consentGroupIDs(userID: String, includingRevoked: Bool = false) -> [String] {
        state.withLock { state in
            var groups = Set(state.consents.keys.filter { $0.userID == userID }.map(\.groupID))
            if includingRevoked { groups.formUnion(state.endedConsents.filter { $0.userID == userID }.map(\.groupID)) }
            return groups.sorted()
        }
    }

    /// Ends every authorization of the user (revocation in Settings, account deletion); returns the
    /// groups that had a live consent.
    @discardableResult
    public func endAllAuthorizations(userID: String) -> [String] {
        state.withLock { state in
            let keys = state.consents.keys.filter { $0.userID == userID }
            for key in keys { Self.endAuthorization(&state, key: key) }
            // Codes and tokens of groups without a stored consent go too.
            state.refreshTokens = state.refreshTokens.filter { $0.value.grant.userID != userID }
            state.accessTokens = state.accessTokens.filter { $0.value.grant?.userID != userID }
            for (code, record) in state.codes where record.grant.userID == userID {
                state.codes[code]?.state = record.state.handle(.revoke).next
            }
            return keys.map(\.groupID).sorted()
        }
    }

    /// The user a code, refresh token or access token was issued for (journal: "resolved user").
    public func userID(forToken token: String) -> String? {
        state.withLock { state in
            state.codes[token]?.grant.userID ?? state.refreshTokens[token]?.grant.userID
                ?? state.accessTokens[token]?.grant?.userID
        }
    }
}
