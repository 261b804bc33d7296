import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

@Suite struct IdentityStoreTests {
    let store = IdentityStore(
        settings: ScenarioSettings(), identifiers: IdentifierGenerator(random: SeededRandomSource(seed: 5)))
    let now = TestFixtures.epoch
    static let web = TestKeys.webClientID
    static let uri = TestKeys.redirectURI
    static let group = "com.example.app"

    func authorize(_ user: String = "alice", scopes: [Scope] = [.name, .email], at time: Int64? = nil) -> (
        String, AuthorizationGrant
    ) {
        let result = store.authorize(
            userID: user, clientID: Self.web, consentGroupID: Self.group, requestedScopes: scopes,
            redirectURI: Self.uri,
            nonce: "n", now: time ?? now)
        return (result.code, result.grant)
    }

    @Test func firstAuthorizationIsFlaggedOncePerGroup() {
        let (_, first) = authorize()
        #expect(first.isFirstAuthorization && first.scopes == [.name, .email] && first.realUserStatus == nil)
        let (_, second) = authorize(scopes: [.name])
        #expect(!second.isFirstAuthorization && second.scopes == [.name, .email], "consented scopes are kept")
        #expect(store.hasConsent(userID: "alice", consentGroupID: Self.group))
        store.endAuthorization(userID: "alice", consentGroupID: Self.group)
        #expect(authorize(scopes: [.email]).1.isFirstAuthorization)
    }

    @Test func codeRedeemsOnceThenReportsReuse() throws {
        let (code, _) = authorize()
        let tokens = try store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: now + 10).get()
        #expect(tokens.refreshToken != nil && tokens.accessTokenExpiresIn == 3600 && tokens.grant.nonce == "n")
        let again = store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: now + 11)
        #expect(again.failure == .codeAlreadyUsed)
    }

    @Test func codeExpiresAfterFiveMinutes() {
        let (code, _) = authorize()
        #expect(
            store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: now + 300).failure
                == .codeExpiredOrRevoked)
        #expect(
            store.redeemCode("c-unknown", clientID: Self.web, redirectURI: Self.uri, now: now).failure
                == .codeExpiredOrRevoked)
    }

    @Test func mismatchesDoNotConsumeTheCode() throws {
        let (code, _) = authorize()
        let wrongClient = store.redeemCode(code, clientID: "com.example.app", redirectURI: Self.uri, now: now)
        #expect(wrongClient.failure?.message == "client_id mismatch. The code was not issued to com.example.app.")
        let wrongURI = store.redeemCode(
            code, clientID: Self.web, redirectURI: "https://localhost:8443/callback", now: now)
        #expect(
            wrongURI.failure?.message
                == "redirect_uri mismatch. The code was not issued to https://localhost:8443/callback.")
        #expect(store.redeemCode(code, clientID: Self.web, redirectURI: nil, now: now).failure?.code == .invalidGrant)
        #expect(throws: Never.self) {
            try store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: now).get()
        }
    }

    @Test func refreshIssuesAccessTokenOnlyAndIsClientBound() throws {
        let (code, _) = authorize()
        let tokens = try store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: now).get()
        let refreshed = try store.refresh(tokens.refreshToken!, clientID: Self.web, now: now + 86400 * 400).get()
        #expect(refreshed.refreshToken == nil && refreshed.grant.nonce == nil && !refreshed.grant.isFirstAuthorization)
        #expect(refreshed.grant.authTime == now)
        #expect(
            store.refresh(tokens.refreshToken!, clientID: "com.example.app", now: now).failure?.code == .invalidGrant)
        #expect(store.refresh("r-unknown", clientID: Self.web, now: now).failure == .invalidRefreshToken)
    }

    @Test func revokeEndsTheAuthorizationForTheGroup() throws {
        let (code1, _) = authorize()
        let tokens = try store.redeemCode(code1, clientID: Self.web, redirectURI: Self.uri, now: now).get()
        let (pendingCode, _) = authorize()
        #expect(store.revoke(tokens.refreshToken!, clientID: Self.web, hint: .refreshToken, now: now).failure == nil)
        #expect(store.refresh(tokens.refreshToken!, clientID: Self.web, now: now).failure == .invalidRefreshToken)
        #expect(store.accessToken(tokens.accessToken, now: now) == nil, "access tokens of the authorization go too")
        #expect(
            store.redeemCode(pendingCode, clientID: Self.web, redirectURI: Self.uri, now: now).failure
                == .codeExpiredOrRevoked)
        #expect(!store.hasConsent(userID: "alice", consentGroupID: Self.group))
        // Idempotent.
        #expect(store.revoke(tokens.refreshToken!, clientID: Self.web, hint: nil, now: now).failure == nil)
        #expect(store.revoke("whatever", clientID: Self.web, hint: nil, now: now).failure == nil)
    }

    @Test func revokeChecksHintAndClient() throws {
        let (code, _) = authorize()
        let tokens = try store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: now).get()
        #expect(
            store.revoke(tokens.accessToken, clientID: Self.web, hint: .refreshToken, now: now).failure?.code
                == .invalidRequest)
        #expect(
            store.revoke(tokens.accessToken, clientID: "com.example.app", hint: nil, now: now).failure?.code
                == .invalidRequest)
        #expect(store.accessToken(tokens.accessToken, now: now) != nil, "failed revokes change nothing")
        #expect(store.revoke(tokens.accessToken, clientID: Self.web, hint: .accessToken, now: now).failure == nil)
        #expect(store.refresh(tokens.refreshToken!, clientID: Self.web, now: now).failure == .invalidRefreshToken)
    }

    @Test func accessTokensExpireAndAreCollected() throws {
        let issued = store.issueClientCredentialsToken(clientID: Self.web, scope: "user.migration", now: now)
        #expect(issued.expiresIn == 3600)
        #expect(store.accessToken(issued.token, now: now + 3599)?.scope == "user.migration")
        #expect(store.accessToken(issued.token, now: now + 3600) == nil)
        _ = authorize()
        #expect(store.counts.codes == 1 && store.counts.accessTokens == 1)
        store.collectExpired(now: now + 4000)
        #expect(store.counts.codes == 0 && store.counts.accessTokens == 0)
    }

    @Test func tablesStayBounded() {
        var limits = IdentityStore.Limits()
        limits.maxCodes = 100
        limits.sweepInterval = 1_000_000
        let small = IdentityStore(
            settings: ScenarioSettings(), identifiers: IdentifierGenerator(random: SeededRandomSource(seed: 1)),
            limits: limits)
        for i in 0..<1000 {
            _ = small.authorize(
                userID: "u\(i)", clientID: Self.web, consentGroupID: Self.group, requestedScopes: [],
                redirectURI: Self.uri,
                nonce: nil, now: now + Int64(i))
        }
        #expect(small.counts.codes <= 100)
    }

    @Test func hundredConcurrentRedemptionsYieldOneSuccess() async throws {
        let (code, _) = authorize()
        let store = self.store
        let now = self.now
        let outcomes = await withTaskGroup(of: Result<IssuedTokens, AppleError>.self) { group in
            for _ in 0..<100 {
                group.addTask { store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: now) }
            }
            var all: [Result<IssuedTokens, AppleError>] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.count == 100)
        #expect(outcomes.filter { $0.failure == nil }.count == 1)
        #expect(outcomes.filter { $0.failure == .codeAlreadyUsed }.count == 99)
    }
}
