import Glibc
import HTTP
import RESP
import RedisStore
import SIWACore
import Synchronization

/// The grant store endpoint tests run on: in memory, or Redis when `SIWA_TEST_STORE` holds a
/// `redis://` URL (Tests/ScaleOut/run.sh runs the endpoint suites a second time that way). Each
/// harness gets its own key prefix, so tests running in parallel never see each other's entries.
package enum TestStore {
    static let client: RedisClient? = {
        guard let text = getenv("SIWA_TEST_STORE").map({ String(cString: $0) }), !text.isEmpty else { return nil }
        guard let endpoint = try? RedisEndpoint(url: text) else { fatalError("SIWA_TEST_STORE is not a redis:// URL") }
        return RedisClient(endpoint: endpoint)
    }()

    /// Whether tests run on Redis.
    package static var isRedis: Bool { client != nil }

    /// A factory for a fresh prefix, or nil for the in-memory store.
    package static func factory() -> GrantStoreFactory? {
        guard let client else { return nil }
        return redisFactory(client: client)
    }

    /// One grant store for every mock made with this factory (replicas of a fleet in one test): one
    /// in-memory store, or one new Redis prefix when tests run on Redis.
    package static func sharedFactory() -> GrantStoreFactory {
        if let client { return redisFactory(client: client) }
        let made = Mutex<IdentityStore?>(nil)
        return { scenario, identifiers in
            made.withLock { store in
                if let store { return store }
                let new = IdentityStore(settings: scenario.settings, identifiers: identifiers)
                store = new
                return new
            }
        }
    }

    /// A factory of Redis stores under one new random prefix.
    package static func redisFactory(client: RedisClient, prefix: String? = nil) -> GrantStoreFactory {
        let prefix = prefix ?? "siwa-test:\(UInt64.random(in: 0...UInt64.max)):"
        return { scenario, identifiers in
            RedisGrantStore(client: client, prefix: prefix, settings: scenario.settings, identifiers: identifiers)
        }
    }

    /// The fleet journal replicas share in a test: in this process, or a Redis stream under a new random
    /// prefix when tests run on Redis.
    package static func fleetJournal(capacity: Int = 10_000) -> any FleetJournal {
        guard let client else { return LocalFleetJournal(capacity: capacity) }
        return RedisFleetJournal(
            client: client, prefix: "siwa-test:\(UInt64.random(in: 0...UInt64.max)):", capacity: capacity)
    }

    /// The fleet state replicas share in a test: in this process, or in Redis under a new random prefix
    /// when tests run on Redis.
    package static func fleetState() -> any FleetState {
        guard let client else { return LocalFleetState() }
        return RedisFleetState(client: client, prefix: "siwa-test:\(UInt64.random(in: 0...UInt64.max)):")
    }
}
