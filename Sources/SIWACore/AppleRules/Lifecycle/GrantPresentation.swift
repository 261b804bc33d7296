/// The user a presented code or token belongs to, as the store's presentation step found it (`user` nil:
/// the store does not know the code or token). Absent (nil) when the request was refused before the
/// store was asked.
package struct PresentedOwner: Sendable, Equatable {
    package var user: String?

    package init(user: String?) { self.user = user }
}

/// What presenting a code or refresh token at `/auth/token` decided, in Apple's decision order
/// (`AppleIdentityProvider.token`): liveness first, then the client's authentication (decided by the
/// caller before the store is asked, passed in), then the grant's binding. One store step, so a shared
/// store answers it in one round trip (docs/scale-out.md, "Sizing").
package enum GrantPresentation: Sendable {
    /// Not live (unknown, expired, used or revoked): `invalid_grant` whoever the client is. `owner` is the
    /// user it was issued for, when the store still knows it (the journal's user).
    case refused(GrantLookup, owner: String?)
    /// Live, but the client was not authenticated: `invalid_client`; nothing was consumed.
    case unauthenticated(AuthorizationGrant)
    /// Live and the client authenticated: the store's redemption or refresh (the binding's refusals, or the
    /// issued tokens).
    case presented(AuthorizationGrant, Result<IssuedTokens, AppleError>)

    /// The user the presented code or token belongs to, when known.
    package var owner: String? {
        switch self {
        case .refused(_, let owner): owner
        case .unauthenticated(let grant), .presented(let grant, _): grant.userID
        }
    }
}

/// What presenting a token at `/auth/revoke` decided (`AppleIdentityProvider.revoke`): a token that is not
/// live answers 200 whoever the client is; then the client's authentication; then the revocation's rules.
package enum RevocationPresentation: Sendable {
    /// Unknown, expired or revoked: nothing to do.
    case notLive
    /// Live, but the client was not authenticated; nothing was revoked.
    case unauthenticated(ownerClient: String, user: String?)
    /// Live and the client authenticated: the store's revocation.
    case presented(Result<Void, AppleError>, ownerClient: String, user: String?)

    /// The user the presented token belongs to, when known.
    package var user: String? {
        switch self {
        case .notLive: nil
        case .unauthenticated(_, let user), .presented(_, _, let user): user
        }
    }
}

/// The presentations composed of a store's separate steps: what `IdentityStore` (all in memory, where a
/// step costs no round trip) uses. `RedisGrantStore` answers each in one script instead.
extension GrantStore {
    package func presentCode(
        _ code: String, clientAuthenticated: Bool, clientID: String, redirectURI: String?, now: Int64
    ) throws(StoreUnavailable) -> GrantPresentation {
        let lookup = try lookUpCode(code, now: now)
        guard case .live(let grant) = lookup else { return .refused(lookup, owner: try userID(forToken: code)) }
        guard clientAuthenticated else { return .unauthenticated(grant) }
        return .presented(grant, try redeemCode(code, clientID: clientID, redirectURI: redirectURI, now: now))
    }

    package func presentRefreshToken(
        _ token: String, clientAuthenticated: Bool, clientID: String, now: Int64
    ) throws(StoreUnavailable) -> GrantPresentation {
        let lookup = try lookUpRefreshToken(token)
        guard case .live(let grant) = lookup else { return .refused(lookup, owner: try userID(forToken: token)) }
        guard clientAuthenticated else { return .unauthenticated(grant) }
        return .presented(grant, try refresh(token, clientID: clientID, now: now))
    }

    package func presentForRevocation(
        _ token: String, clientAuthenticated: Bool, clientID: String, hint: TokenTypeHint?, now: Int64
    ) throws(StoreUnavailable) -> RevocationPresentation {
        guard let ownerClient = try liveTokenOwner(token, now: now) else { return .notLive }
        let user = try userID(forToken: token)
        guard clientAuthenticated else { return .unauthenticated(ownerClient: ownerClient, user: user) }
        return .presented(
            try revoke(token, clientID: clientID, hint: hint, now: now), ownerClient: ownerClient, user: user)
    }
}
