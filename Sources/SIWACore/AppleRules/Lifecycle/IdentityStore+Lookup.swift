/// What a presented code or token is, read without changing anything.
///
/// Apple looks the grant up before it authenticates the client (docs/fidelity.md, "Decision order"), so
/// `/auth/token` and `/auth/revoke` read the grant first and consume it only after every check passed: a
/// refused request leaves a valid code redeemable.
package enum GrantLookup: Sendable, Equatable {
    /// Never issued, or collected.
    case unknown
    /// Issued but past its lifetime (codes), or an expired access token.
    case expired
    /// The user's authorization ended (revoke, consent revoked, user deleted).
    case revoked
    /// A code that was redeemed once.
    case used
    /// Usable, issued for this grant.
    case live(AuthorizationGrant)
}

extension IdentityStore {
    /// The state of an authorization code at `now`; nothing changes.
    package func lookUpCode(_ code: String, now: Int64) -> GrantLookup {
        state.withLock { state in
            guard let record = state.codes[code] else { return .unknown }
            switch record.state {
            case .issued: return now < record.expiresAt ? .live(record.grant) : .expired
            case .redeemed: return .used
            case .expired: return .expired
            case .revoked: return .revoked
            }
        }
    }

    /// A refresh token's grant, or `.unknown` (revoked refresh tokens are removed, so they read as unknown).
    package func lookUpRefreshToken(_ token: String) -> GrantLookup {
        state.withLock { state in state.refreshTokens[token].map { .live($0.grant) } ?? .unknown }
    }

    /// The client a live refresh or access token was issued to; nil for unknown, expired or revoked tokens.
    package func liveTokenOwner(_ token: String, now: Int64) -> String? {
        state.withLock { state in
            if let refresh = state.refreshTokens[token] { return refresh.grant.clientID }
            if let access = state.accessTokens[token], access.expiresAt > now { return access.clientID }
            return nil
        }
    }
}
