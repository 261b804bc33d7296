import HTTPServer
import RedisStore
import SIWACore
import SIWATestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The journal's owner look-up and the handler's look-up of the same token share one round trip
/// (`RedisRecordPrefetch`; docs/scale-out.md, "Sizing"), and a prefetch is never used for anything else.
@Suite struct RedisPrefetchTests {
    static let web = TestKeys.webClientID
    static let uri = TestKeys.redirectURI

    /// A store with its own client, so that its round trips can be counted.
    static func store() throws -> RedisGrantStore {
        RedisGrantStore(
            client: RedisClient(endpoint: try RedisEndpoint(url: SharedRedis.server.url)),
            prefix: "prefetch-\(UInt64.random(in: 0...UInt64.max)):", settings: Scenario.builtIn.settings,
            identifiers: IdentifierGenerator(random: SeededRandomSource(seed: UInt64.random(in: 1...UInt64.max))))
    }

    func issue(_ store: RedisGrantStore) throws -> String {
        try store.authorize(
            userID: "alice", clientID: Self.web, consentGroupID: "g", requestedScopes: [.email], redirectURI: Self.uri,
            nonce: nil, now: 1000, nativeRealUserStatus: nil, forcedRealUserStatus: nil, emailChoice: nil
        ).code
    }

    @Test func aRedemptionCostsTwoRoundTrips() throws {
        let store = try Self.store()
        // The redeem script's first use loads it (`SCRIPT LOAD`, once per store): not counted here.
        _ = try store.redeemCode(try issue(store), clientID: Self.web, redirectURI: Self.uri, now: 1001)
        let code = try issue(store)
        let before = store.client.sent.roundTrips
        #expect(try store.userID(forToken: code) == "alice")
        guard case .live(let grant) = try store.lookUpCode(code, now: 1001) else {
            Issue.record("the code is live")
            return
        }
        #expect(grant.userID == "alice")
        _ = try store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: 1001)
        #expect(store.client.sent.roundTrips - before == 2, "owner + look-up in one, redeem in the other")
        // Used once: the next look-up reads Redis again, and sees the redemption.
        #expect(try store.lookUpCode(code, now: 1002) == .used)
        #expect(store.client.sent.roundTrips - before == 3)
    }

    @Test func refreshAndRevokeLookUpsUseThePrefetchToo() throws {
        let store = try Self.store()
        let code = try issue(store)
        guard
            case .success(let tokens) = try store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: 1001),
            let refresh = tokens.refreshToken
        else {
            Issue.record("redeemed")
            return
        }
        let before = store.client.sent.roundTrips
        #expect(try store.userID(forToken: refresh) == "alice")
        #expect(try store.lookUpRefreshToken(refresh) != .unknown)
        #expect(try store.userID(forToken: tokens.accessToken) == "alice")
        #expect(try store.liveTokenOwner(tokens.accessToken, now: 1002) == Self.web)
        #expect(store.client.sent.roundTrips - before == 2)
    }

    @Test func aPrefetchServesOnlyItsTokenItsStoreAndOnlyWhileFresh() throws {
        let store = try Self.store()
        let other = try Self.store()
        let code = try issue(store)
        let second = try issue(store)
        _ = try store.userID(forToken: code)
        let before = store.client.sent.roundTrips
        // Another token: read from Redis (and the prefetch is gone).
        #expect(try store.lookUpCode(second, now: 1001) != .unknown)
        #expect(try store.lookUpCode(code, now: 1001) != .unknown)
        #expect(store.client.sent.roundTrips - before == 2)
        // Another store (another prefix): never answered from this store's prefetch.
        _ = try store.userID(forToken: code)
        #expect(try other.lookUpCode(code, now: 1001) == .unknown)
        // Stale (older than 100 ms): read again, and the redemption made since is seen.
        _ = try store.userID(forToken: code)
        _ = try store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: 1001)
        usleep(150_000)
        #expect(try store.lookUpCode(code, now: 1001) == .used)
    }
}
