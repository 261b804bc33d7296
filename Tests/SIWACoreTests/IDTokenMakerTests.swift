import JOSE
import JSON
import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

@Suite struct IDTokenMakerTests {
    let keys: ScenarioKeys
    let now = TestFixtures.epoch
    init() throws { keys = try ScenarioKeys(loading: .builtIn) }

    func grant(scopes: [Scope], nonce: String? = "n-1", status: RealUserStatus? = nil) -> AuthorizationGrant {
        AuthorizationGrant(
            clientID: "com.example.web", redirectURI: TestKeys.redirectURI, userID: "bob", consentGroupID: "g",
            scopes: scopes,
            nonce: nonce, authTime: now - 5, isFirstAuthorization: true, realUserStatus: status)
    }

    /// The order of Apple's tokens captured 2020–2025 (docs/fidelity.md, "id_token").
    @Test func claimsComeInTheCapturedOrder() throws {
        let maker = IDTokenMaker(settings: ScenarioSettings(), keys: keys)
        let bob = try #require(Scenario.builtIn.user(id: "bob"))
        let claims = maker.claims(
            for: grant(scopes: [.email], status: .likelyReal), user: bob, issuedAt: now, companion: .accessToken("a1"))
        #expect(
            claims.keys == [
                "iss", "aud", "exp", "iat", "sub", "nonce", "at_hash", "email", "email_verified", "is_private_email",
                "auth_time", "nonce_supported", "real_user_status",
            ])
        #expect(claims["iss"] == .string("https://appleid.apple.com") && claims["aud"] == .string("com.example.web"))
        #expect(
            claims["exp"] == .int(now + 86400) && claims["iat"] == .int(now) && claims["auth_time"] == .int(now - 5))
        #expect(claims["email"] == .string("k7x2m9q4ab@privaterelay.appleid.com"))
        #expect(claims["email_verified"] == .bool(true) && claims["is_private_email"] == .bool(true))
        #expect(claims["nonce_supported"] == .bool(true) && claims["real_user_status"] == .int(2))
    }

    @Test func emailOnlyWithConsentAndPrivateFlagOmittedWhenFalse() throws {
        let maker = IDTokenMaker(settings: ScenarioSettings(), keys: keys)
        let alice = try #require(Scenario.builtIn.user(id: "alice"))
        let noEmail = maker.claims(
            for: grant(scopes: [.name], nonce: nil), user: alice, issuedAt: now, companion: .code("c1"))
        #expect(noEmail["email"] == nil && noEmail["email_verified"] == nil && noEmail["nonce"] == nil)
        #expect(noEmail["c_hash"] != nil && noEmail["at_hash"] == nil)
        let withEmail = maker.claims(for: grant(scopes: [.email]), user: alice, issuedAt: now, companion: .none)
        #expect(withEmail["email"] == .string("alice@example.com") && withEmail["is_private_email"] == nil)
        var settings = ScenarioSettings()
        settings.includeFalsePrivateEmail = true
        let explicit = IDTokenMaker(settings: settings, keys: keys).claims(
            for: grant(scopes: [.email]), user: alice, issuedAt: now, companion: .none)
        #expect(explicit["is_private_email"] == .bool(false))
    }

    @Test func refreshIDTokensLackAuthTimeUnlessSwitchedOn() throws {
        let bob = try #require(Scenario.builtIn.user(id: "bob"))
        let maker = IDTokenMaker(settings: ScenarioSettings(), keys: keys)
        let refresh = maker.claims(
            for: grant(scopes: [.email], nonce: nil), user: bob, issuedAt: now, companion: .accessToken("a2"),
            occasion: .refresh)
        #expect(refresh["auth_time"] == nil && refresh["at_hash"] != nil && refresh["nonce_supported"] == nil)
        var settings = ScenarioSettings()
        settings.refreshIDTokenAuthTime = true
        let withAuthTime = IDTokenMaker(settings: settings, keys: keys).claims(
            for: grant(scopes: [.email], nonce: nil), user: bob, issuedAt: now, companion: .accessToken("a2"),
            occasion: .refresh)
        #expect(withAuthTime["auth_time"] == .int(now - 5))
    }

    /// douxindong/SignInWithApple `applelogin/log/log_debug.log` (2020): a refresh grant's id_token for a
    /// shared email has exactly these claims, in this order (docs/fidelity.md, "id_token claims").
    @Test func refreshIDTokenHasExactlyTheCapturedClaims() throws {
        let alice = try #require(Scenario.builtIn.user(id: "alice"))
        let refresh = IDTokenMaker(settings: ScenarioSettings(), keys: keys).claims(
            for: grant(scopes: [.email], nonce: nil), user: alice, issuedAt: now, companion: .accessToken("a2"),
            occasion: .refresh)
        #expect(refresh.keys == ["iss", "aud", "exp", "iat", "sub", "at_hash", "email", "email_verified"])
    }

    @Test func relayUserWithoutPrivateEmailClaim() throws {
        var bob = try #require(Scenario.builtIn.user(id: "bob"))
        bob.sendsPrivateEmailClaim = false
        let claims = IDTokenMaker(settings: ScenarioSettings(), keys: keys).claims(
            for: grant(scopes: [.email]), user: bob, issuedAt: now, companion: .none)
        #expect(claims["email"] == .string("k7x2m9q4ab@privaterelay.appleid.com"))
        #expect(claims["email_verified"] == .bool(true) && claims["is_private_email"] == nil)
    }

    @Test func stringBooleanStyle() throws {
        var settings = ScenarioSettings()
        settings.booleanStyle = .string
        let bob = try #require(Scenario.builtIn.user(id: "bob"))
        let claims = IDTokenMaker(settings: settings, keys: keys).claims(
            for: grant(scopes: [.email]), user: bob, issuedAt: now, companion: .none)
        #expect(claims["email_verified"] == .string("true") && claims["is_private_email"] == .string("true"))
        #expect(claims["nonce_supported"] == .bool(true), "nonce_supported is always a real boolean")
    }

    @Test func halfHashMatchesOIDCDefinition() {
        // OIDC Core example: at_hash of "jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y" is "77QmUPtjPfzWtF2AnpK9RQ".
        #expect(IDTokenMaker.halfHash("jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y") == "77QmUPtjPfzWtF2AnpK9RQ")
    }

    @Test func signedTokenVerifiesWithThePublishedKey() throws {
        let maker = IDTokenMaker(settings: ScenarioSettings(), keys: keys)
        let alice = try #require(Scenario.builtIn.user(id: "alice"))
        let token = try maker.makeIDToken(for: grant(scopes: []), user: alice, issuedAt: now, companion: .none)
        let jws = try JWS(compact: token)
        #expect(jws.header.keys == ["kid", "alg"] && jws.header["kid"] == .string("Aj3F8kLq2X"))
        #expect(
            try #require(keys.publicKeys["Aj3F8kLq2X"]).verifyRS256(signature: jws.signature, message: jws.signingInput)
        )
        #expect(jws.payload["sub"] == .string("001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111"))
    }
}
