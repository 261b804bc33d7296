import Dispatch
import RESP
import RedisStore
import SIWACore
import SIWATestSupport
import ScenarioModel
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What only a shared store has to show: several replicas (each with its own client and connections)
/// racing on one code, and an outage of Redis itself.
@Suite(.serialized, .enabled(if: RedisServerBinary.found)) struct RedisSharedStoreTests {
    static let web = TestKeys.webClientID
    static let uri = TestKeys.redirectURI

    /// Three "replicas": stores with their own Redis clients (own connection pools) on one prefix.
    static func replicas(_ url: String, count: Int = 3) throws -> [RedisGrantStore] {
        let prefix = "race-\(UInt64.random(in: 0...UInt64.max)):"
        return try (0..<count).map { index in
            RedisGrantStore(
                client: RedisClient(endpoint: try RedisEndpoint(url: url)), prefix: prefix,
                settings: Scenario.builtIn.settings,
                identifiers: IdentifierGenerator(random: SeededRandomSource(seed: UInt64(index + 1) * 7919)))
        }
    }

    @Test func hundredConcurrentRedemptionsOverThreeReplicasYieldOneSuccess() throws {
        let stores = try Self.replicas(try SharedRedis.server().url)
        let (code, _) = try stores[0].authorize(
            userID: "alice", clientID: Self.web, consentGroupID: "g", requestedScopes: [], redirectURI: Self.uri,
            nonce: nil, now: 1000, nativeRealUserStatus: nil, forcedRealUserStatus: nil, emailChoice: nil)
        let outcomes = Mutex<[String]>([])
        let group = DispatchGroup()
        for index in 0..<100 {
            DispatchQueue.global().async(group: group) {
                let store = stores[index % 3]
                let outcome: String
                do {
                    switch try store.redeemCode(code, clientID: Self.web, redirectURI: Self.uri, now: 1001) {
                    case .success: outcome = "ok"
                    case .failure(let error): outcome = error == .codeAlreadyUsed ? "used" : "\(error)"
                    }
                } catch {
                    outcome = "unavailable: \(error)"
                }
                outcomes.withLock { $0.append(outcome) }
            }
        }
        group.wait()
        let all = outcomes.withLock { $0 }
        #expect(all.count == 100)
        #expect(all.filter { $0 == "ok" }.count == 1, "exactly one redemption wins: \(Set(all))")
        #expect(all.filter { $0 == "used" }.count == 99)
    }

    @Test func anOutageAnswersUnavailableAndLosesNothing() throws {
        let redis = try RedisServerProcess(persistent: true)
        let stores = try Self.replicas(redis.url, count: 2)
        let issue = { () throws(StoreUnavailable) -> String in
            try stores[0].authorize(
                userID: "alice", clientID: Self.web, consentGroupID: "g", requestedScopes: [], redirectURI: Self.uri,
                nonce: nil, now: 1000, nativeRealUserStatus: nil, forcedRealUserStatus: nil, emailChoice: nil
            ).code
        }
        let kept = try issue()
        let spent = try issue()
        let tokens = try stores[1].redeemCode(spent, clientID: Self.web, redirectURI: Self.uri, now: 1001).get()
        redis.kill()
        #expect(throws: StoreUnavailable.self) { try stores[1].lookUpCode(kept, now: 1002) }
        #expect(stores[1].unavailableReason != nil)
        let started = MonotonicClockProbe.milliseconds()
        #expect(throws: StoreUnavailable.self) {
            try stores[0].redeemCode(kept, clientID: Self.web, redirectURI: Self.uri, now: 1002)
        }
        #expect(MonotonicClockProbe.milliseconds() - started < 500, "a known outage fails fast (back-off)")
        try redis.start()
        usleep(2_100_000)  // past the longest back-off
        #expect(
            try stores[0].redeemCode(spent, clientID: Self.web, redirectURI: Self.uri, now: 1003).failure
                == .codeAlreadyUsed, "no double spend after the restart")
        #expect(
            try stores[1].refresh(try #require(tokens.refreshToken), clientID: Self.web, now: 1003).get().grant.userID
                == "alice")
        #expect(
            try stores[1].redeemCode(kept, clientID: Self.web, redirectURI: Self.uri, now: 1003).get().grant.userID
                == "alice")
        #expect(stores[0].unavailableReason == nil && stores[1].unavailableReason == nil)
    }

    @Test func aWrongPasswordIsReportedWithRedisReason() throws {
        let client = RedisClient(
            endpoint: try RedisEndpoint(
                url: try SharedRedis.server().url.replacingPrefix("redis://", with: "redis://:nope@"))
        )
        #expect(!client.probe())
        #expect(client.unavailableReason?.contains("AUTH refused") == true, "\(client.unavailableReason ?? "")")
    }

    /// A Redis with a password, reached without one, answers `NOAUTH`: that is the reason given, not
    /// "no answer to PING"; a wrong password is `WRONGPASS`; an ACL user without `PING` is `NOPERM`.
    @Test func aMissingPasswordAWrongOneAndAnACLRefusalAreSaidAsSuch() throws {
        let redis = try RedisServerProcess(extraArguments: [
            "--requirepass", "s3cret", "--user", "app", "on", ">apppass", "~*", "-@all", "+get",
        ])
        func reason(_ url: String) throws -> String {
            let client = RedisClient(endpoint: try RedisEndpoint(url: url))
            #expect(!client.probe())
            return client.unavailableReason ?? ""
        }
        let missing = try reason(redis.url)
        #expect(missing.contains("requires a password (it answered NOAUTH)"), "\(missing)")
        let wrong = try reason(redis.url.replacingPrefix("redis://", with: "redis://:nope@"))
        #expect(wrong.contains("WRONGPASS") && !wrong.contains("nope"), "\(wrong)")
        let acl = try reason(redis.url.replacingPrefix("redis://", with: "redis://app:apppass@"))
        #expect(acl.contains("may not run PING (ACL, NOPERM)"), "\(acl)")
        let right = try RedisEndpoint(url: redis.url.replacingPrefix("redis://", with: "redis://:s3cret@"))
        #expect(RedisClient(endpoint: right).probe())
    }
}

enum MonotonicClockProbe {
    static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}

extension String {
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
