/// Where consents, authorization codes and tokens live: in this process (`IdentityStore`, the default)
/// or in a store shared by several replicas (the Redis store of docs/scale-out.md).
///
/// Every operation is one atomic step of Apple's lifecycle, so two replicas can never both redeem a
/// code or keep a token alive past its revocation. A shared store may be unreachable: its operations
/// then throw `StoreUnavailable` and change nothing; the in-memory store never throws.
import ScenarioModel

package protocol GrantStore: AnyObject, Sendable {
    /// Records the user's authorization of a client and issues an authorization code for it
    /// (`IdentityStore.authorize` says how consents and first authorizations are decided).
    func authorize(
        userID: String, clientID: String, consentGroupID: String, requestedScopes: [Scope], redirectURI: String?,
        nonce: String?, now: Int64, nativeRealUserStatus: RealUserStatus?, forcedRealUserStatus: RealUserStatus?,
        emailChoice: EmailChoice?
    ) throws(StoreUnavailable) -> (code: String, grant: AuthorizationGrant)

    /// Ends a user's authorization for an app group: consent forgotten, tokens removed, codes revoked.
    func endAuthorization(userID: String, consentGroupID: String) throws(StoreUnavailable)

    /// Ends every authorization of the user; returns the groups that had a live consent, sorted.
    @discardableResult
    func endAllAuthorizations(userID: String) throws(StoreUnavailable) -> [String]

    func consentStatus(userID: String, consentGroupID: String) throws(StoreUnavailable) -> ConsentStatus

    /// The app groups the user has authorized (and, optionally, those whose authorization ended), sorted.
    func consentGroupIDs(userID: String, includingRevoked: Bool) throws(StoreUnavailable) -> [String]

    /// Redeems a code: single use, bound to its client and redirect_uri (`IdentityStore.redeemCode`).
    func redeemCode(
        _ code: String, clientID: String, redirectURI: String?, now: Int64
    ) throws(StoreUnavailable) -> Result<IssuedTokens, AppleError>

    /// Uses a refresh token: a new access token, no new refresh token.
    func refresh(_ refreshToken: String, clientID: String, now: Int64) throws(StoreUnavailable)
        -> Result<IssuedTokens, AppleError>

    /// Issues a `client_credentials` access token.
    func issueClientCredentialsToken(clientID: String, scope: String, now: Int64) throws(StoreUnavailable)
        -> (token: String, expiresIn: Int64)

    /// A live access token; nil when unknown, expired or revoked.
    func accessToken(_ token: String, now: Int64) throws(StoreUnavailable) -> AccessTokenRecord?

    /// Revokes a refresh or access token (`/auth/revoke`; `IdentityStore.revoke` has Apple's rules).
    func revoke(_ token: String, clientID: String, hint: TokenTypeHint?, now: Int64) throws(StoreUnavailable)
        -> Result<Void, AppleError>

    /// The state of an authorization code at `now`; nothing changes.
    func lookUpCode(_ code: String, now: Int64) throws(StoreUnavailable) -> GrantLookup

    /// A refresh token's grant, or `.unknown`.
    func lookUpRefreshToken(_ token: String) throws(StoreUnavailable) -> GrantLookup

    /// The client a live refresh or access token was issued to; nil for unknown, expired or revoked.
    func liveTokenOwner(_ token: String, now: Int64) throws(StoreUnavailable) -> String?

    /// The user a code, refresh token or access token was issued for (journal: "resolved user").
    func userID(forToken token: String) throws(StoreUnavailable) -> String?

    /// A code presented at `/auth/token` (`GrantPresentation`): looked up, refused, or redeemed, in one step.
    func presentCode(
        _ code: String, clientAuthenticated: Bool, clientID: String, redirectURI: String?, now: Int64
    ) throws(StoreUnavailable) -> GrantPresentation

    /// A refresh token presented at `/auth/token` (`GrantPresentation`), in one step.
    func presentRefreshToken(
        _ token: String, clientAuthenticated: Bool, clientID: String, now: Int64
    ) throws(StoreUnavailable) -> GrantPresentation

    /// A token presented at `/auth/revoke` (`RevocationPresentation`), in one step.
    func presentForRevocation(
        _ token: String, clientAuthenticated: Bool, clientID: String, hint: TokenTypeHint?, now: Int64
    ) throws(StoreUnavailable) -> RevocationPresentation

    /// Starts users with `consentedScopes` as returning (consent in every consent group).
    func seedReturningUsers(of scenario: Scenario, now: Int64) throws(StoreUnavailable)

    /// Drops expired entries now; returns how many went (a store with its own expiry returns 0).
    @discardableResult
    func collectExpired(now: Int64) throws(StoreUnavailable) -> Int

    /// Entries per table, for tests and the control API.
    func tableCounts() throws(StoreUnavailable) -> IdentityStore.Counts

    /// Forgets every consent, code and token of this store (`reset()`, scenario replacement).
    func removeAll() throws(StoreUnavailable)

    /// Why the store cannot serve requests now, or nil when it can (`/mock/health`).
    var unavailableReason: String? { get }
}

/// A shared store could not be reached or did not answer in time. Nothing was changed by the operation
/// that threw it; Apple's endpoints answer 503 (docs/scale-out.md, "Failure modes").
package struct StoreUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    package var reason: String

    package init(_ reason: String) { self.reason = reason }

    package var description: String { "state store unavailable: \(reason)" }
}

extension GrantStore {
    /// Whether the user has an active authorization (consent) for the app group.
    package func hasConsent(userID: String, consentGroupID: String) throws(StoreUnavailable) -> Bool {
        try consentStatus(userID: userID, consentGroupID: consentGroupID) == .active
    }
}
