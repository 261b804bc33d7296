import RESP
import RedisStore
import SIWACore
import SIWATestSupport
import Testing

/// A code, refresh token or revocation presented to the provider with the Redis store costs one round
/// trip, whatever the outcome (docs/scale-out.md, "Sizing"): the look-up, the client's verdict and the
/// change are one script. Counted with the client's own counters (a client of its own, so no other test's
/// traffic is counted).
@Suite(.enabled(if: RedisServerBinary.found)) struct RoundTripTests {
    let clock = TestFixtures.clock()
    let client: RedisClient
    let provider: AppleIdentityProvider
    let secrets: ClientSecretMaker

    init() throws {
        client = RedisClient(endpoint: try RedisEndpoint(url: try SharedRedis.server().url))
        provider = try AppleIdentityProvider(
            scenario: .builtIn, clock: clock, random: TestFixtures.random(),
            storeFactory: TestStore.redisFactory(client: client))
        secrets = try ClientSecretMaker()
    }

    func code() throws -> String {
        try provider.store.authorize(
            userID: "alice", clientID: TestKeys.webClientID, consentGroupID: "com.example.app", requestedScopes: [],
            redirectURI: TestKeys.redirectURI, nonce: nil, now: clock.nowSeconds, nativeRealUserStatus: nil,
            forcedRealUserStatus: nil, emailChoice: nil
        ).code
    }

    func form(_ grant: [(String, String)], secret: String? = nil) throws -> [(name: String, value: String)] {
        [("client_id", TestKeys.webClientID)]
            + [("client_secret", try secret ?? secrets.make(clientID: TestKeys.webClientID, now: clock.nowSeconds))]
            + grant.map { (name: $0.0, value: $0.1) }
    }

    /// Round trips `body` made, and the journal's user the provider learned.
    func roundTrips(_ body: (inout PresentedOwner?) throws -> Void) rethrows -> (Int, PresentedOwner?) {
        var owner: PresentedOwner?
        let before = client.sent.roundTrips
        try body(&owner)
        return (client.sent.roundTrips - before, owner)
    }

    @Test func everyPresentationIsOneRoundTrip() throws {
        func redeem(_ code: String) -> [(String, String)] {
            [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TestKeys.redirectURI)]
        }
        // Warm the scripts (a script's first use per client may add a SCRIPT LOAD).
        let tokens = try provider.token(try form(redeem(try code()))).get()
        let refreshToken = try #require(tokens.refreshToken)
        let refresh = try form([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
        _ = provider.token(refresh)
        _ = provider.revoke(try form([("token", "unknown")]))

        let fresh = try code()
        let redemption = try form(redeem(fresh))
        let ok = roundTrips { owner in #expect(provider.token(redemption, owner: &owner).failure == nil) }
        #expect(ok.0 == 1 && ok.1 == PresentedOwner(user: "alice"), "a redemption: \(ok)")

        let replay = try form(redeem(fresh), secret: "bad")
        let used = roundTrips { owner in
            #expect(provider.token(replay, owner: &owner).failure?.error == .codeAlreadyUsed)
        }
        #expect(used.0 == 1 && used.1 == PresentedOwner(user: "alice"), "a used code, whoever the client: \(used)")

        let other = try code()
        let badSecret = try form(redeem(other), secret: "bad")
        let unauthenticated = roundTrips { owner in
            #expect(provider.token(badSecret, owner: &owner).failure?.error == .invalidClient)
        }
        #expect(unauthenticated.0 == 1, "a live code and a bad secret: \(unauthenticated)")
        #expect(provider.token(try form(redeem(other))).failure == nil, "that code was not consumed")

        let bogus = try form(redeem("cunknown"))
        let unknown = roundTrips { owner in #expect(provider.token(bogus, owner: &owner).failure != nil) }
        #expect(unknown.0 == 1 && unknown.1 == PresentedOwner(user: nil), "an unknown code: \(unknown)")

        let refreshed = roundTrips { owner in #expect(provider.token(refresh, owner: &owner).failure == nil) }
        #expect(refreshed.0 == 1 && refreshed.1 == PresentedOwner(user: "alice"), "a refresh: \(refreshed)")

        let revocation = try form([("token", refreshToken)])
        let revoked = roundTrips { owner in #expect(provider.revoke(revocation, owner: &owner).failure == nil) }
        #expect(revoked.0 == 1 && revoked.1 == PresentedOwner(user: "alice"), "a revocation: \(revoked)")

        let again = roundTrips { owner in #expect(provider.token(refresh, owner: &owner).failure != nil) }
        #expect(again.0 == 1, "the revoked refresh token: \(again)")
    }
}
