import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

/// `seed:` makes what a test reads reproducible (subs, relay addresses) but never a secret: two
/// processes with the same seed — replicas of one fleet, or a restart on the same store — once minted
/// the same codes and tokens, so carol's code redeemed at one replica answered with alice's `sub`
/// (docs/scale-out.md, "What seed: means in a fleet").
@Suite struct SeedUniquenessTests {
    static func seeded() throws -> Scenario {
        var scenario = Scenario.builtIn
        scenario.seed = 7
        return scenario
    }

    @Test func twoProvidersWithOneSeedNeverMintTheSameSecret() throws {
        let a = try AppleIdentityProvider(scenario: Self.seeded(), clock: TestFixtures.clock())
        let b = try AppleIdentityProvider(scenario: Self.seeded(), clock: TestFixtures.clock())
        var seen = Set<String>()
        for provider in [a, b] {
            for _ in 0..<20 {
                let ids = provider.identifiers
                for value in [
                    ids.makeAuthorizationCode(), ids.makeAccessToken(), ids.makeRefreshToken(), ids.makeKeyID(),
                    ids.makeUniqueID(),
                ] {
                    #expect(seen.insert(value).inserted, "\(value) minted twice")
                }
            }
        }
    }

    @Test func twoProvidersWithOneSeedIssueDifferentCodesForTheSameRequest() throws {
        let a = try AppleIdentityProvider(scenario: Self.seeded(), clock: TestFixtures.clock())
        let b = try AppleIdentityProvider(scenario: Self.seeded(), clock: TestFixtures.clock())
        func code(_ provider: AppleIdentityProvider, _ user: String) throws -> String {
            try provider.store.authorize(
                userID: user, clientID: "com.example.app", consentGroupID: "com.example.app", requestedScopes: [],
                redirectURI: nil, nonce: nil, now: TestFixtures.epoch, nativeRealUserStatus: nil,
                forcedRealUserStatus: nil, emailChoice: nil
            ).code
        }
        #expect(try code(a, "alice") != code(b, "bob"))
        #expect(try code(a, "carol") != code(b, "carol"))
    }

    @Test func runtimeUsersGetDistinctReproducibleIdentifiers() throws {
        let a = try AppleIdentityProvider(scenario: Self.seeded(), clock: TestFixtures.clock())
        let b = try AppleIdentityProvider(scenario: Self.seeded(), clock: TestFixtures.clock())
        let daveAtA = try a.addUser(UserProfile(id: "dave", sub: "", email: "d@example.com", privateEmail: true))
        let erinAtB = try b.addUser(UserProfile(id: "erin", sub: "", email: "e@example.com", privateEmail: true))
        let daveAtB = try b.addUser(UserProfile(id: "dave", sub: "", email: "d@example.com", privateEmail: true))
        #expect(daveAtA.sub != erinAtB.sub)
        #expect(daveAtA.relayEmail != erinAtB.relayEmail)
        #expect(daveAtA.sub == daveAtB.sub, "one user, one sub at every replica")
        #expect(daveAtA.relayEmail == daveAtB.relayEmail)
        #expect(daveAtA.sub.hasPrefix("00"))
    }
}
