import RESP
import RedisStore
import SIWACore
import SIWATestSupport
import ScenarioModel
import Synchronization
import Testing

/// One redis-server for this test process, started on first use (Debian's `redis-server`); a server that
/// cannot start fails each test that asks for it, with the reason.
enum SharedRedis {
    private static let started = Result { try RedisServerProcess() }
    static func server() throws -> RedisServerProcess { try started.get() }
    private static let sharedClient = Result { RedisClient(endpoint: try RedisEndpoint(url: try server().url)) }
    static func client() throws -> RedisClient { try sharedClient.get() }
}

/// Without redis-server, the Redis-backed tests are skipped and this one test says what to install, once;
/// with SIWA_MOCK_REQUIRE_REDIS=1 (.ci/run) it fails instead, so CI never skips them silently.
@Suite struct RedisServerInstalledTests {
    @Test(
        .enabled(if: RedisServerBinary.found || RedisServerBinary.required, Comment(rawValue: RedisServerBinary.hint)))
    func redisServerIsOnPath() {
        #expect(RedisServerBinary.found, Comment(rawValue: RedisServerBinary.hint))
    }
}

enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory, redis
    var testDescription: String { rawValue }

    /// The kinds this machine can test: Redis only with redis-server on PATH (RedisServerInstalledTests).
    static let tested: [StoreKind] = RedisServerBinary.found ? allCases : [.memory]

    /// A fresh store of this kind (Redis: a new prefix on the shared server).
    func make(clock: ManualClock) throws -> any GrantStore {
        let identifiers = IdentifierGenerator(random: SeededRandomSource(seed: UInt64.random(in: 1...UInt64.max)))
        switch self {
        case .memory: return IdentityStore(settings: Scenario.builtIn.settings, identifiers: identifiers)
        case .redis:
            return TestStore.redisFactory(client: try SharedRedis.client())(Scenario.builtIn, identifiers)
        }
    }
}

/// The lifecycle rules every grant store must keep (the in-memory one and Redis alike).
@Suite struct GrantStoreContractTests {
    static let web = TestKeys.webClientID
    static let uri = TestKeys.redirectURI
    static let group = "com.example.app"

    func issue(
        _ store: any GrantStore, now: Int64, user: String = "alice", scopes: [Scope] = [.email],
        emailChoice: EmailChoice? = nil
    ) throws -> (code: String, grant: AuthorizationGrant) {
        try store.authorize(
            userID: user, clientID: Self.web, consentGroupID: Self.group, requestedScopes: scopes,
            redirectURI: Self.uri, nonce: "n1", now: now, nativeRealUserStatus: nil, forcedRealUserStatus: nil,
            emailChoice: emailChoice)
    }

    @Test(arguments: StoreKind.tested)
    func firstAuthorizationThenReturning(kind: StoreKind) throws {
        let store = try kind.make(clock: TestFixtures.clock())
        let first = try issue(store, now: 1000, scopes: [.name, .email], emailChoice: .hide)
        #expect(first.grant.isFirstAuthorization && first.grant.scopes == [.name, .email] && first.grant.nonce == "n1")
        #expect(first.grant.emailChoice == .hide)
        let second = try issue(store, now: 1001, scopes: [], emailChoice: .share)
        #expect(!second.grant.isFirstAuthorization && second.grant.scopes == [.name, .email], "stored consent")
        #expect(second.grant.emailChoice == .hide, "the sheet's choice is kept with the consent")
        let tokens = try store.redeemCode(second.code, clientID: Self.web, redirectURI: Self.uri, now: 1002).get()
        let refreshed = try store.refresh(try #require(tokens.refreshToken), clientID: Self.web, now: 1003).get()
        #expect(tokens.grant.emailChoice == .hide && refreshed.grant.emailChoice == .hide)
        #expect(try store.consentStatus(userID: "alice", consentGroupID: Self.group) == .active)
        #expect(try store.lookUpCode(first.code, now: 1002) == .live(first.grant))
    }

    @Test(arguments: StoreKind.tested)
    func aCodeIsRedeemedOnceAndOnlyByItsClientAndRedirect(kind: StoreKind) throws {
        let store = try kind.make(clock: TestFixtures.clock())
        let (code, grant) = try issue(store, now: 1000)
        #expect(
            try store.redeemCode(code, clientID: "other", redirectURI: Self.uri, now: 1001).failure
                == .clientIDMismatch(presented: "other"))
        #expect(
            try store.redeemCode(code, clientID: Self.web, redirectURI: "https://x", now: 1001).failure
                == .redirectURIMismatch(presented: "https://x"))
        let tokens = try store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: 1001).get()
        #expect(tokens.grant == grant && tokens.refreshToken != nil && tokens.accessTokenExpiresIn == 3600)
        #expect(
            try store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: 1002).failure == .codeAlreadyUsed
        )
        #expect(try store.lookUpCode(code, now: 1002) == .used)
        #expect(try store.userID(forToken: tokens.accessToken) == "alice")
        #expect(try store.accessToken(tokens.accessToken, now: 1002)?.clientID == Self.web)
        #expect(try store.accessToken(tokens.accessToken, now: 1001 + 3600) == nil, "expired by the mock clock")
    }

    @Test(arguments: StoreKind.tested)
    func expiryFollowsTheMockClock(kind: StoreKind) throws {
        let store = try kind.make(clock: TestFixtures.clock())
        let (code, _) = try issue(store, now: 1000)
        #expect(try store.lookUpCode(code, now: 1299) != .expired)
        #expect(try store.lookUpCode(code, now: 1300) == .expired)
        #expect(
            try store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: 1300).failure
                == .codeExpiredOrRevoked)
    }

    @Test(arguments: StoreKind.tested)
    func revokingARefreshTokenEndsTheAuthorization(kind: StoreKind) throws {
        let store = try kind.make(clock: TestFixtures.clock())
        let (code, _) = try issue(store, now: 1000)
        let (pending, _) = try issue(store, now: 1000)
        let tokens = try store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: 1001).get()
        let refresh = try #require(tokens.refreshToken)
        let refreshed = try store.refresh(refresh, clientID: Self.web, now: 1002).get()
        #expect(!refreshed.grant.isFirstAuthorization && refreshed.grant.nonce == nil && refreshed.refreshToken == nil)
        #expect(try store.liveTokenOwner(refresh, now: 1003) == Self.web)
        #expect(try store.revoke(refresh, clientID: Self.web, hint: .accessToken, now: 1003).failure != nil, "hint")
        #expect(
            try store.revoke(refresh, clientID: "other", hint: nil, now: 1003).failure
                == .tokenClientMismatch(presented: "other"))
        try store.revoke(refresh, clientID: Self.web, hint: .refreshToken, now: 1003).get()
        #expect(try store.refresh(refresh, clientID: Self.web, now: 1004).failure == .invalidRefreshToken)
        #expect(try store.accessToken(refreshed.accessToken, now: 1004) == nil, "every token of the grant went")
        #expect(try store.lookUpCode(pending, now: 1004) == .revoked, "outstanding codes are revoked")
        #expect(try store.consentStatus(userID: "alice", consentGroupID: Self.group) == .revoked)
        #expect(try store.consentGroupIDs(userID: "alice", includingRevoked: true) == [Self.group])
        #expect(try store.consentGroupIDs(userID: "alice", includingRevoked: false) == [])
        try store.revoke(refresh, clientID: "anyone", hint: nil, now: 1005).get()  // unknown: silently fine
        #expect(try issue(store, now: 1006).grant.isFirstAuthorization, "a new sign-in is a first one again")
    }

    @Test(arguments: StoreKind.tested)
    func endingAllAuthorizationsNamesTheConsentedGroups(kind: StoreKind) throws {
        let store = try kind.make(clock: TestFixtures.clock())
        _ = try issue(store, now: 1000)
        _ = try issue(store, now: 1000, user: "bob")
        #expect(try store.endAllAuthorizations(userID: "alice") == [Self.group])
        #expect(try store.consentStatus(userID: "alice", consentGroupID: Self.group) == .revoked)
        #expect(try store.consentStatus(userID: "bob", consentGroupID: Self.group) == .active, "nobody else's")
        #expect(try store.consentStatus(userID: "carol", consentGroupID: Self.group) == ConsentStatus.none)
    }

    @Test(arguments: StoreKind.tested)
    func clientCredentialsTokensAndReset(kind: StoreKind) throws {
        let store = try kind.make(clock: TestFixtures.clock())
        let issued = try store.issueClientCredentialsToken(clientID: Self.web, scope: "user.migration", now: 1000)
        let record = try #require(try store.accessToken(issued.token, now: 1001))
        #expect(record.scope == "user.migration" && record.grant == nil && record.expiresAt == 1000 + issued.expiresIn)
        _ = try issue(store, now: 1000)
        #expect(try store.tableCounts().codes == 1 && store.tableCounts().accessTokens == 1)
        try store.removeAll()
        #expect(
            try store.tableCounts() == IdentityStore.Counts(codes: 0, accessTokens: 0, refreshTokens: 0, consents: 0))
    }

    @Test(arguments: StoreKind.tested)
    func returningUsersAreSeeded(kind: StoreKind) throws {
        let store = try kind.make(clock: TestFixtures.clock())
        var scenario = Scenario.builtIn
        scenario.users[0].consentedScopes = [.name]
        try store.seedReturningUsers(of: scenario, now: 1000)
        let user = scenario.users[0].id
        let group = scenario.consentGroupID(forClient: Self.web)
        #expect(try store.consentStatus(userID: user, consentGroupID: group) == .active)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
