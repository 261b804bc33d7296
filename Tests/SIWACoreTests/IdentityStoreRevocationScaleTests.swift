import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

/// Regression for bench/load: ending one user's authorization walks the tables in place (it used to
/// copy every table per revoke). The walk must still reach every entry of that user, and only those.
@Suite struct IdentityStoreRevocationScaleTests {
    let store = IdentityStore(
        settings: ScenarioSettings(), identifiers: IdentifierGenerator(random: SeededRandomSource(seed: 9)))
    let now = TestFixtures.epoch
    static let web = TestKeys.webClientID
    static let uri = TestKeys.redirectURI
    static let group = "com.example.app"

    func authorize(_ user: String) -> String {
        store.authorize(
            userID: user, clientID: Self.web, consentGroupID: Self.group, requestedScopes: [.email],
            redirectURI: Self.uri, nonce: nil, now: now
        ).code
    }

    @Test func endingOneAuthorizationAmongManyTouchesOnlyThatUser() throws {
        var pending: [String: [String]] = [:]
        var tokens: [String: [IssuedTokens]] = [:]
        for i in 0..<600 {
            let user = ["alice", "bob", "carol"][i % 3]
            let code = authorize(user)
            if i % 2 == 0 {
                tokens[user, default: []].append(
                    try store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: now).get())
            } else {
                pending[user, default: []].append(code)
            }
        }
        let service = store.issueClientCredentialsToken(clientID: Self.web, scope: "user.migration", now: now)
        let before = store.counts

        store.endAuthorization(userID: "bob", consentGroupID: Self.group)

        for code in pending["bob"]! {
            #expect(
                store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: now).failure
                    == .codeExpiredOrRevoked)
        }
        for issued in tokens["bob"]! {
            #expect(store.refresh(issued.refreshToken!, clientID: Self.web, now: now).failure == .invalidRefreshToken)
            #expect(store.accessToken(issued.accessToken, now: now) == nil)
        }
        for user in ["alice", "carol"] {
            for issued in tokens[user]! {
                #expect(store.accessToken(issued.accessToken, now: now) != nil)
                #expect(store.refresh(issued.refreshToken!, clientID: Self.web, now: now).failure == nil)
            }
            for code in pending[user]! {
                #expect(store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: now).failure == nil)
            }
        }
        #expect(store.accessToken(service.token, now: now) != nil, "client_credentials tokens have no user")
        #expect(before.codes == 600)
        #expect(store.counts.codes == 600, "codes are marked revoked, not dropped")
    }

    /// Issue #11 item 5: revoke, consent changes and account deletion cost O(that user's grants). With
    /// 20,000 live grants of other users (across two groups), ending bob's examines only bob's entries.
    @Test func revocationWorkFollowsTheUsersGrantsNotTheStore() throws {
        for i in 0..<10_000 {
            let code = authorize("user-\(i % 500)")
            _ = try store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: now).get()
        }
        let bobCode = authorize("bob")
        let bobTokens = try store.redeemCode(bobCode, clientID: Self.web, redirectURI: Self.uri, now: now).get()
        _ = try store.refresh(bobTokens.refreshToken!, clientID: Self.web, now: now).get()
        _ = authorize("bob")
        let visitsBefore = store.revocationVisits

        #expect(store.revoke(bobTokens.refreshToken!, clientID: Self.web, hint: nil, now: now).failure == nil)
        // bob's two codes, two access tokens; the refresh token itself was removed directly.
        #expect(store.revocationVisits - visitsBefore <= 5, "visited \(store.revocationVisits - visitsBefore)")
        #expect(store.consentStatus(userID: "bob", consentGroupID: Self.group) == .revoked)

        _ = authorize("bob")
        let deleteBefore = store.revocationVisits
        #expect(store.endAllAuthorizations(userID: "bob") == [Self.group])
        #expect(store.revocationVisits - deleteBefore <= 2)
        #expect(store.endAllAuthorizations(userID: "user-7") == [Self.group])
        #expect(store.counts.refreshTokens == 10_000 - 20, "user-7's 20 refresh tokens went, nobody else's")
    }
}
