import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

/// The provider's decision order at `/auth/token` and `/auth/revoke` (docs/fidelity.md, "Decision order"),
/// with the tester-facing reason of each refusal. The endpoint table test runs the full matrix.
@Suite struct TokenDecisionOrderTests {
    let clock = TestFixtures.clock()
    let provider: AppleIdentityProvider
    let secrets: ClientSecretMaker
    static let web = TestKeys.webClientID
    static let native = TestKeys.nativeClientID

    init() throws {
        provider = try TestFixtures.provider(clock: clock)
        secrets = try ClientSecretMaker()
    }

    /// The provider's default in-memory store.
    var store: IdentityStore { provider.store as! IdentityStore }

    func code() -> String {
        store.authorize(
            userID: "alice", clientID: Self.web, consentGroupID: "com.example.app", requestedScopes: [],
            redirectURI: TestKeys.redirectURI, nonce: nil, now: clock.nowSeconds
        ).code
    }

    func redeem(_ code: String, clientID: String = web, secret: String? = nil) throws -> Result<
        TokenResponse, EndpointFailure
    > {
        provider.token([
            ("grant_type", "authorization_code"), ("code", code), ("client_id", clientID),
            ("client_secret", try secret ?? secrets.make(clientID: clientID, now: clock.nowSeconds)),
            ("redirect_uri", TestKeys.redirectURI),
        ])
    }

    @Test func anUnknownCodeIsInvalidGrantEvenForAnUnknownClient() throws {
        let failure = try #require(try redeem("cbogus", clientID: "com.fake.client").failure)
        #expect(failure.error == .codeExpiredOrRevoked)
        #expect(failure.reason == "code was never issued (or was collected)")
    }

    @Test func aValidCodeWithABadSecretIsInvalidClientAndStaysRedeemable() throws {
        let code = code()
        let wrongSub = try secrets.make(clientID: Self.native, now: clock.nowSeconds)
        let failure = try #require(try redeem(code, secret: wrongSub).failure)
        #expect(failure.error == .invalidClient)
        #expect(failure.reason == "client_secret sub 'com.example.app' ≠ client_id 'com.example.web'")
        #expect(try redeem(code).failure == nil, "the refused request consumed nothing")
    }

    @Test func usedAndExpiredCodesAreInvalidGrantBeforeTheClient() throws {
        let used = code()
        #expect(try redeem(used).failure == nil)
        let again = try #require(try redeem(used, secret: "bad").failure)
        #expect(again.error == .codeAlreadyUsed && again.reason == "code was redeemed before")
        let expired = code()
        clock.advance(seconds: 300)
        let late = try #require(try redeem(expired, secret: "bad").failure)
        #expect(late.error == .codeExpiredOrRevoked && late.reason == "code is past its lifetime")
    }

    @Test func bindingIsCheckedAfterTheClientWithAPreciseReason() throws {
        let code = code()
        let bad = try #require(try redeem(code, clientID: Self.native, secret: "bad").failure)
        #expect(bad.error == .invalidClient)
        let mismatch = try #require(try redeem(code, clientID: Self.native).failure)
        #expect(mismatch.error == .clientIDMismatch(presented: Self.native))
        #expect(mismatch.reason == "issued to client_id 'com.example.web' ≠ 'com.example.app'")
        #expect(try redeem(code).failure == nil, "mismatches consumed nothing")
    }

    @Test func missingBodyCredentialsAreInvalidClientWithoutDescription() {
        let failure = provider.token([("grant_type", "authorization_code"), ("code", "x")]).failure
        #expect(failure?.error == .invalidClient && failure?.error?.message == nil)
        #expect(failure?.reason == "no client_id in the form body")
        let noSecret = provider.revoke([("client_id", Self.web), ("token", "x")]).failure
        #expect(noSecret?.reason == "no client_secret in the form body")
    }

    @Test func revokeOfAnUnknownTokenSucceedsWhateverTheClient() throws {
        let form = [("client_id", "com.fake.client"), ("client_secret", "fake"), ("token", "bogus")]
        #expect(provider.revoke(form).failure == nil)
        let tokens = try redeem(code()).get()
        let refresh = try #require(tokens.refreshToken)
        let refused = provider.revoke([("client_id", Self.web), ("client_secret", "fake"), ("token", refresh)])
        #expect(refused.failure?.error == .invalidClient)
        let other = provider.revoke([
            ("client_id", Self.native),
            ("client_secret", try secrets.make(clientID: Self.native, now: clock.nowSeconds)),
            ("token", refresh),
        ])
        #expect(other.failure?.error == .tokenClientMismatch(presented: Self.native))
        #expect(other.failure?.reason == "issued to client_id 'com.example.web'")
        #expect(store.liveTokenOwner(refresh, now: clock.nowSeconds) == Self.web, "still live")
    }

    @Test func nonFormBodiesFollowTheSwitch() throws {
        let json = provider.nonFormBodyFailure(at: .token, contentType: "application/json")
        #expect(json.error == .invalidClient)
        #expect(
            json.reason
                == "Content-Type 'application/json' is not application/x-www-form-urlencoded: no client_id in a form body"
        )
        var scenario = Scenario.builtIn
        scenario.settings.nonFormBody = .unsupportedGrantType
        let old = try TestFixtures.provider(scenario: scenario, clock: clock)
        #expect(old.nonFormBodyFailure(at: .token, contentType: nil).error == .unsupportedGrantType())
        #expect(old.nonFormBodyFailure(at: .revoke, contentType: nil).error == .invalidRequest("Invalid content type"))
    }

    @Test func anUnreadBasicHeaderIsNotedOnInvalidClientOnly() {
        let noted = AppleIdentityProvider.notingUnreadBasicHeader(
            EndpointFailure(.invalidClient, reason: "no client_id in the form body"))
        #expect(
            noted.reason
                == "no client_id in the form body; the Authorization: Basic header is not read (client_secret_post only)"
        )
        let grant = EndpointFailure(.codeAlreadyUsed, reason: "r")
        #expect(AppleIdentityProvider.notingUnreadBasicHeader(grant) == grant)
    }

    @Test func lookUpChangesNothing() throws {
        let code = code()
        clock.advance(seconds: 300)
        #expect(store.lookUpCode(code, now: clock.nowSeconds) == .expired)
        #expect(store.lookUpCode(code, now: clock.nowSeconds - 1) != .expired, "the lookup did not mark it")
        #expect(store.lookUpCode("nope", now: clock.nowSeconds) == .unknown)
        #expect(store.lookUpRefreshToken("nope") == .unknown)
    }
}
