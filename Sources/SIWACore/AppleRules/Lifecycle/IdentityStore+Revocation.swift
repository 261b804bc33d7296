/// The `token_type_hint` of `/auth/revoke`.
package enum TokenTypeHint: String, Sendable, Equatable {
    case refreshToken = "refresh_token"
    case accessToken = "access_token"
}

extension IdentityStore {
    /// Revokes a refresh or access token (`/auth/revoke`,
    /// https://developer.apple.com/documentation/signinwithapplerestapi/revoke-tokens).
    ///
    /// - Unknown, expired or already revoked tokens succeed silently (Apple: revoke is idempotent).
    /// - A token issued to another client → `invalid_request` "client_id mismatch. The token was not
    ///   issued to <client_id>." (Apple: client_id "must match the client the token was issued to"; the
    ///   error code is our choice, TN3107 lists invalid_request for mismatched client data).
    /// - A `token_type_hint` naming the other kind of token → `invalid_request` "token_type_hint mismatch"
    ///   (TN3107 lists a hint mismatch as a revoke failure; the code is our choice).
    /// - A user token ends the user's authorization for the app group (`endAuthorization`).
    package func revoke(_ token: String, clientID: String, hint: TokenTypeHint?, now: Int64) -> Result<Void, AppleError>
    {
        state.withLock { state in
            let kind: TokenTypeHint
            let owner: String
            let grant: AuthorizationGrant?
            if let refresh = state.refreshTokens[token] {
                (kind, owner, grant) = (.refreshToken, refresh.grant.clientID, refresh.grant)
            } else if let access = state.accessTokens[token], access.expiresAt > now {
                (kind, owner, grant) = (.accessToken, access.clientID, access.grant)
            } else {
                return .success(())
            }
            if let hint, hint != kind { return .failure(.invalidRequest("token_type_hint mismatch")) }
            guard owner == clientID else { return .failure(.tokenClientMismatch(presented: clientID)) }
            state.removeRefreshToken(token)
            state.removeAccessToken(token)
            if let grant { state.endAuthorization(ConsentKey(userID: grant.userID, groupID: grant.consentGroupID)) }
            noteMutation(&state, now: now)
            return .success(())
        }
    }
}
