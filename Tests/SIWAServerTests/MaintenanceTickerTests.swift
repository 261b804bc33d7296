import Background
import SIWACore
import Synchronization
import Testing

@testable import SIWAServer

/// The serve command's maintenance tick: an idle server still loses its expired codes and tokens.
@Suite struct MaintenanceTickerTests {
    static let web = "com.example.web"
    static let uri = "https://app.example.com/auth/apple/callback"

    let clock = ManualClock(seconds: 1_800_000_000)
    let provider: AppleIdentityProvider

    init() throws {
        provider = try AppleIdentityProvider(scenario: .builtIn, clock: clock)
    }

    /// Issues a code for alice; with `redeem`, turns it into an access and a refresh token.
    func authorize(redeem: Bool) {
        let now = clock.nowSeconds
        let store = provider.store as! IdentityStore
        let (code, _) = store.authorize(
            userID: "alice", clientID: Self.web, consentGroupID: "com.example.app", requestedScopes: [],
            redirectURI: Self.uri, nonce: nil, now: now)
        if redeem {
            let result = store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: now)
            #expect((try? result.get()) != nil)
        }
    }

    @Test func idleStoreDropsExpiredCodesAndAccessTokensOnTheTick() {
        let collected = Mutex(0)
        let ticker = MaintenanceTicker(provider: provider, onCollected: { count in collected.withLock { $0 += count } })
        authorize(redeem: false)
        authorize(redeem: false)
        authorize(redeem: true)
        let before = provider.store.counts
        #expect(before.codes == 3 && before.accessTokens == 1 && before.refreshTokens == 1)

        // Nothing has expired yet: the tick keeps everything and does not report a collection.
        #expect(ticker.tick() == 0)
        #expect(provider.store.counts == before)

        // Past the 5-minute code lifetime: the codes go, the 1-hour access token stays.
        clock.advance(seconds: 301)
        #expect(ticker.tick() == 3)
        #expect(provider.store.counts.codes == 0 && provider.store.counts.accessTokens == 1)

        // Past the access token's hour: it goes too; refresh tokens do not expire.
        clock.advance(seconds: 3600)
        #expect(ticker.tick() == 1)
        #expect(provider.store.counts.accessTokens == 0 && provider.store.counts.refreshTokens == 1)
        #expect(collected.withLock { $0 } == 4)
    }

    @Test func startedTickerRunsOnTheSchedulerEveryInterval() {
        let collected = Mutex(0)
        let schedulerClock = ManualSchedulerClock()
        let scheduler = BackgroundScheduler(clock: schedulerClock)
        defer { scheduler.stop() }
        let ticker = MaintenanceTicker(provider: provider, onCollected: { count in collected.withLock { $0 += count } })
        #expect(ticker.start(on: scheduler))
        authorize(redeem: false)
        clock.advance(seconds: 301)
        schedulerClock.advance(milliseconds: 14_999)
        #expect(scheduler.waitUntilIdle())
        #expect(provider.store.counts.codes == 1, "not yet: the interval is 15 s")
        schedulerClock.advance(milliseconds: 1)
        #expect(scheduler.waitUntilIdle())
        #expect(provider.store.counts.codes == 0 && collected.withLock { $0 } == 1)
    }
}
