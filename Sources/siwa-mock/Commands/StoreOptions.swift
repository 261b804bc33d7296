import Background
import HTTPServer
import RedisStore
import SIWACore

/// `--store`: where consents, codes and tokens live. Absent: in this process. A `redis://` URL: in Redis,
/// shared by every replica given the same URL and scenario name (docs/scale-out.md).
enum StoreOptions {
    static let store = Option.optional(
        "store", "url",
        help: "Keep consents, codes and tokens in Redis, shared by every replica: "
            + "redis://[user:password@]host:port[/db] (docs/scale-out.md).",
        shownDefault: "in memory", environment: true,
        parser: ValueParser { text throws(OptionValueError) in
            do throws(RedisError) {
                return try RedisEndpoint(url: text)
            } catch {
                throw OptionValueError(error.message)
            }
        })

    /// Connects (the mock refuses to start on a store it cannot reach), keeps the connection checked
    /// every 500 ms so health recovers without traffic, and returns the factory for the provider and the
    /// fleet's shared clock and keys under the starting scenario's prefix.
    static func connect(
        _ endpoint: RedisEndpoint, scheduler: BackgroundScheduler, scenario: Scenario, log: RequestLog
    ) throws -> (factory: GrantStoreFactory, fleet: any FleetState) {
        let client = RedisClient(endpoint: endpoint)
        guard client.probe() else {
            throw RuntimeError(
                "cannot reach the state store \(endpoint): \(client.unavailableReason ?? "no answer to PING")")
        }
        if !scheduler.repeatEvery(500, { client.probe() }) {
            log.note("cannot start the store health thread: /mock/health recovers only with traffic")
        }
        log.note("state store: \(endpoint)")
        let factory: GrantStoreFactory = { scenario, identifiers in
            RedisGrantStore(
                client: client, prefix: RedisGrantStore.prefix(for: scenario), settings: scenario.settings,
                identifiers: identifiers)
        }
        return (factory, RedisFleetState(client: client, prefix: RedisGrantStore.prefix(for: scenario)))
    }
}
