import Locking
import ScenarioModel

/// The one owner of the fake IdP's mutable state: consents, authorization codes, access and refresh
/// tokens. Every operation takes `now` from the caller and runs under one lock, so concurrent
/// requests on several event-loop threads see a consistent state (100 simultaneous redemptions of
/// one code yield exactly one success). No I/O; id_tokens are signed by the caller, outside the lock.
package final class IdentityStore: Sendable {
    /// Memory bounds, in entries and in bytes (docs/limits.md). Expired entries are collected every
    /// `sweepInterval` mutations; a table over either cap keeps its newer entries up to half of both.
    package struct Limits: Sendable, Equatable {
        package var maxCodes: Int = 100_000
        package var maxAccessTokens: Int = 200_000
        package var maxRefreshTokens: Int = 200_000
        package var maxCodeBytes: Int = 64 << 20
        package var maxAccessTokenBytes: Int = 64 << 20
        package var maxRefreshTokenBytes: Int = 64 << 20
        package var sweepInterval: Int = 1024

        package init() {}
    }

    struct State: Sendable {
        var codes: [String: CodeRecord] = [:]
        var accessTokens: [String: AccessTokenRecord] = [:]
        var refreshTokens: [String: RefreshTokenRecord] = [:]
        var consents: [ConsentKey: ConsentRecord] = [:]
        /// Consents that were ended (revoked, deleted); cleared by a new authorization.
        var endedConsents: Set<ConsentKey> = []
        /// The codes and user tokens of each (user, app group), so ending an authorization costs
        /// O(that user's grants), not a walk of every table under the lock (`IdentityStore+Index`).
        var grants: [ConsentKey: GrantKeys] = [:]
        /// The app groups each user has a consent, an ended consent or grants in.
        var groupsByUser: [String: Set<String>] = [:]
        /// Entries examined by revocations (tests check it stays proportional to the user's grants).
        var revocationVisits = 0
        /// Approximate heap bytes of each table (`TokenRecords+Size`), kept under `Limits`.
        var bytes = TableBytes()
        /// Code and access-token keys in insertion order with their deadlines (`collectExpired`).
        var codeExpiries = ExpiryQueue()
        var accessTokenExpiries = ExpiryQueue()
        /// Queue entries collections have examined (tests check it follows what expired, not the tables).
        var expiryVisits = 0
        var mutationsSinceSweep = 0
        var nextSequence: UInt64 = 0
    }

    let state: Lock<State>
    let identifiers: IdentifierGenerator
    let codeLifetime: Int64
    let accessTokenLifetime: Int64
    let limits: Limits

    package init(settings: ScenarioSettings, identifiers: IdentifierGenerator, limits: Limits = Limits()) {
        self.state = Lock(State())
        self.identifiers = identifiers
        self.codeLifetime = settings.codeLifetimeSeconds
        self.accessTokenLifetime = settings.accessTokenLifetimeSeconds
        self.limits = limits
    }

    /// Table sizes, for tests and the control API.
    package struct Counts: Sendable, Equatable {
        package var codes: Int
        package var accessTokens: Int
        package var refreshTokens: Int
        package var consents: Int

        package init(codes: Int, accessTokens: Int, refreshTokens: Int, consents: Int) {
            self.codes = codes
            self.accessTokens = accessTokens
            self.refreshTokens = refreshTokens
            self.consents = consents
        }
    }

    /// Entries revocations have examined so far: grows with the revoked users' grants, not the store.
    package var revocationVisits: Int { state.withLock { $0.revocationVisits } }

    /// Entries collections of expired codes and tokens have examined so far.
    package var expiryVisits: Int { state.withLock { $0.expiryVisits } }

    /// Approximate bytes held by each table (what `Limits`' byte caps are checked against).
    package var tableBytes: TableBytes { state.withLock { $0.bytes } }

    package var counts: Counts {
        state.withLock {
            Counts(
                codes: $0.codes.count, accessTokens: $0.accessTokens.count, refreshTokens: $0.refreshTokens.count,
                consents: $0.consents.count)
        }
    }
}

extension IdentityStore {
    /// Records the user's authorization of a client and issues an authorization code for it.
    ///
    /// The first authorization for the (user, app group) stores the requested scopes as the consent and
    /// is flagged `isFirstAuthorization` (the caller then sends `user`); later ones reuse the stored scopes
    /// and the email choice made at the first (`emailChoice` is only taken on a first authorization).
    package func authorize(
        userID: String, clientID: String, consentGroupID: String, requestedScopes: [Scope], redirectURI: String?,
        nonce: String?, now: Int64, nativeRealUserStatus: RealUserStatus? = nil,
        forcedRealUserStatus: RealUserStatus? = nil, emailChoice: EmailChoice? = nil
    ) -> (code: String, grant: AuthorizationGrant) {
        let code = identifiers.makeAuthorizationCode()
        return state.withLock { state in
            let key = ConsentKey(userID: userID, groupID: consentGroupID)
            let isFirst: Bool
            let scopes: [Scope]
            let choice: EmailChoice?
            if let consent = state.consents[key] {
                isFirst = false
                scopes = consent.scopes
                choice = consent.emailChoice
            } else {
                isFirst = true
                scopes = requestedScopes
                choice = emailChoice
                state.grantConsent(
                    key, ConsentRecord(scopes: requestedScopes, grantedAt: now, emailChoice: emailChoice))
            }
            let grant = AuthorizationGrant(
                clientID: clientID, redirectURI: redirectURI, userID: userID, consentGroupID: consentGroupID,
                scopes: scopes, nonce: nonce, authTime: now, isFirstAuthorization: isFirst,
                realUserStatus: forcedRealUserStatus ?? (isFirst ? nativeRealUserStatus : nil), emailChoice: choice)
            state.insertCode(
                code, CodeRecord(grant: grant, issuedAt: now, expiresAt: now + codeLifetime, state: .issued))
            noteMutation(&state, now: now)
            return (code, grant)
        }
    }

    /// Whether the user has an active authorization (consent) for the app group.
    package func hasConsent(userID: String, consentGroupID: String) -> Bool {
        state.withLock { $0.consents[ConsentKey(userID: userID, groupID: consentGroupID)] != nil }
    }

    /// Ends a user's authorization for an app group: consent forgotten (the next sign-in is a first one,
    /// `user` is sent again), all refresh and access tokens removed, outstanding codes revoked. Costs
    /// O(that pair's grants) through the index, whatever the size of the store.
    package func endAuthorization(userID: String, consentGroupID: String) {
        state.withLock { $0.endAuthorization(ConsentKey(userID: userID, groupID: consentGroupID)) }
    }
}
