import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

/// Collecting expired codes and tokens costs what expired, not a walk of the tables under the store's
/// lock (the soak in bench/soak.py saw that walk in its tail latency as the code table grew).
@Suite struct IdentityStoreExpiryTests {
    let store: IdentityStore = {
        var limits = IdentityStore.Limits()
        limits.sweepInterval = 1_000_000  // only the explicit collections below sweep
        return IdentityStore(
            settings: ScenarioSettings(), identifiers: IdentifierGenerator(random: SeededRandomSource(seed: 11)),
            limits: limits)
    }()
    let start = TestFixtures.epoch
    static let web = TestKeys.webClientID
    static let uri = TestKeys.redirectURI

    func authorize(_ user: String, at now: Int64) -> String {
        store.authorize(
            userID: user, clientID: Self.web, consentGroupID: "com.example.app", requestedScopes: [],
            redirectURI: Self.uri, nonce: nil, now: now
        ).code
    }

    @Test func collectingVisitsOnlyWhatExpired() throws {
        let lifetime = ScenarioSettings().codeLifetimeSeconds
        let old = (0..<10).map { authorize("u\($0)", at: start) }
        let young = (0..<3000).map { authorize("v\($0)", at: start + 100) }
        let visitsBefore = store.expiryVisits

        let removed = store.collectExpired(now: start + lifetime + 1)

        #expect(removed == old.count)
        #expect(store.expiryVisits - visitsBefore == old.count, "visited \(store.expiryVisits - visitsBefore)")
        #expect(store.counts.codes == young.count)
        for code in old { #expect(store.lookUpCode(code, now: start + lifetime + 1) == .unknown) }
        // The young codes go when their own deadline passes.
        #expect(store.collectExpired(now: start + 100 + lifetime + 1) == young.count)
        #expect(store.counts.codes == 0)
    }

    @Test func redeemedCodesAndTheirAccessTokensExpireOnce() throws {
        let code = authorize("alice", at: start)
        let tokens = try store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: start).get()
        #expect(store.accessToken(tokens.accessToken, now: start) != nil)
        let settings = ScenarioSettings()
        let late = start + max(settings.codeLifetimeSeconds, settings.accessTokenLifetimeSeconds) + 1

        #expect(store.collectExpired(now: late) == 2)  // the code and the access token; the refresh token stays
        #expect(store.collectExpired(now: late + 1) == 0)
        #expect(store.counts.refreshTokens == 1)
    }
}
