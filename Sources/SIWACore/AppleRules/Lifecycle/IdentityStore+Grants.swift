extension IdentityStore {
    /// Redeems an authorization code (grant_type `authorization_code`).
    ///
    /// Checks, in order: the code's state (unknown, expired or revoked → "The code has expired or has
    /// been revoked."; used → "The code has already been used."), the client ("client_id mismatch…"),
    /// then the redirect_uri, which must equal the authorize request's exactly and be absent for native
    /// codes ("redirect_uri mismatch…"). A mismatch does not consume the code. On success the code
    /// becomes `.redeemed` and an access token and a refresh token are issued.
    package func redeemCode(
        _ code: String, clientID: String, redirectURI: String?, now: Int64
    ) -> Result<IssuedTokens, AppleError> {
        let accessToken = identifiers.makeAccessToken()
        let refreshToken = identifiers.makeRefreshToken()
        return state.withLock { state in
            guard let record = state.codes[code] else { return .failure(.codeExpiredOrRevoked) }
            let (next, error) = record.state.handle(.redeem(now: now, expiresAt: record.expiresAt))
            if let error {
                state.codes[code]?.state = next
                return .failure(error)
            }
            guard record.grant.clientID == clientID else { return .failure(.clientIDMismatch(presented: clientID)) }
            guard record.grant.redirectURI == redirectURI else {
                return .failure(.redirectURIMismatch(presented: redirectURI ?? ""))
            }
            state.codes[code]?.state = next
            let grant = record.grant
            // Tokens never need the nonce again (refresh id_tokens carry none): not kept per token.
            var stored = grant
            stored.nonce = nil
            state.insertAccessToken(
                accessToken,
                AccessTokenRecord(
                    clientID: clientID, grant: stored, scope: nil, issuedAt: now, expiresAt: now + accessTokenLifetime))
            state.insertRefreshToken(refreshToken, RefreshTokenRecord(grant: stored, issuedAt: now, sequence: 0))
            noteMutation(&state, now: now)
            return .success(
                IssuedTokens(
                    accessToken: accessToken, refreshToken: refreshToken, grant: grant,
                    accessTokenExpiresIn: accessTokenLifetime))
        }
    }

    /// Uses a refresh token (grant_type `refresh_token`): a new access token, and no new refresh token.
    ///
    /// The returned grant has no nonce and is not a first authorization (so no `user`, no
    /// `real_user_status`); `auth_time` stays that of the original sign-in.
    package func refresh(_ refreshToken: String, clientID: String, now: Int64) -> Result<IssuedTokens, AppleError> {
        let accessToken = identifiers.makeAccessToken()
        return state.withLock { state in
            guard let record = state.refreshTokens[refreshToken] else { return .failure(.invalidRefreshToken) }
            guard record.grant.clientID == clientID else {
                return .failure(.invalidGrant("client_id mismatch. The token was not issued to \(clientID)."))
            }
            var grant = record.grant
            grant.nonce = nil
            grant.isFirstAuthorization = false
            grant.realUserStatus = nil
            state.insertAccessToken(
                accessToken,
                AccessTokenRecord(
                    clientID: clientID, grant: grant, scope: nil, issuedAt: now, expiresAt: now + accessTokenLifetime))
            noteMutation(&state, now: now)
            return .success(
                IssuedTokens(
                    accessToken: accessToken, refreshToken: nil, grant: grant, accessTokenExpiresIn: accessTokenLifetime
                ))
        }
    }

    /// Issues a `client_credentials` access token (scope `user.migration`) for the team-transfer flow.
    package func issueClientCredentialsToken(clientID: String, scope: String, now: Int64) -> (
        token: String, expiresIn: Int64
    ) {
        let accessToken = identifiers.makeAccessToken()
        state.withLock { state in
            state.insertAccessToken(
                accessToken,
                AccessTokenRecord(
                    clientID: clientID, grant: nil, scope: scope, issuedAt: now, expiresAt: now + accessTokenLifetime))
            noteMutation(&state, now: now)
        }
        return (accessToken, accessTokenLifetime)
    }

    /// A live access token (for `/auth/usermigrationinfo`); nil when unknown, expired or revoked.
    package func accessToken(_ token: String, now: Int64) -> AccessTokenRecord? {
        state.withLock { state in
            guard let record = state.accessTokens[token], record.expiresAt > now else { return nil }
            return record
        }
    }
}
