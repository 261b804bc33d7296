import Background
import RESP
import RedisStore
import SIWACore
import ScenarioModel

#if canImport(Glibc)
    import Glibc
#endif

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

    static let sharedJournal = Option.optional(
        "shared-journal", "entries",
        help: "With --store: also keep the newest ENTRIES journal entries of every replica in one Redis stream, "
            + "read with GET /mock/requests?scope=fleet (docs/scale-out.md).",
        shownDefault: "journal per replica only", environment: true, parser: .integer(in: 100...1_000_000))

    /// Connects (the mock refuses to start on a store it cannot reach), keeps the connection checked
    /// every 500 ms so health recovers without traffic, and returns the factory for the provider and the
    /// fleet's shared clock and keys under the starting scenario's prefix.
    static func connect(
        _ endpoint: RedisEndpoint, scheduler: BackgroundScheduler, scenario: Scenario, sharedJournal: Int?,
        log: RequestLog
    ) throws -> (factory: GrantStoreFactory, fleet: any FleetState, journal: (any FleetJournal)?) {
        let client = RedisClient(endpoint: endpoint)
        guard client.probe() else {
            // The client's reasons mostly name the endpoint already: say it once.
            let reason = client.unavailableReason ?? "no answer to PING"
            let named = reason.hasPrefix("\(endpoint)") ? reason : "\(endpoint): \(reason)"
            throw RuntimeError("cannot reach the state store \(named)")
        }
        if !scheduler.repeatEvery(500, { client.probe() }) {
            log.note("cannot start the store health thread: /mock/health recovers only with traffic")
        }
        let prefix = RedisGrantStore.prefix(for: scenario)
        log.note("state store: \(endpoint), key prefix \(prefix) (scenario '\(scenario.name)')")
        let factory: GrantStoreFactory = { scenario, identifiers in
            RedisGrantStore(
                client: client, prefix: RedisGrantStore.prefix(for: scenario), settings: scenario.settings,
                identifiers: identifiers)
        }
        let journal: (any FleetJournal)? = sharedJournal.map {
            RedisFleetJournal(client: client, prefix: prefix, capacity: $0)
        }
        if let sharedJournal { log.note("fleet journal: the newest \(sharedJournal) entries in \(prefix)j") }
        return (factory, RedisFleetState(client: client, prefix: prefix, log: { log.note($0) }), journal)
    }

    /// How this replica names itself in the fleet journal: `HOST:PORT`, its host name and the port it
    /// listens on (unique with host networking, where containers share the host's name, and with bridge
    /// networks, where each container has its own).
    static func replicaName(port: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost:\(port)" }
        let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(host):\(port)"
    }
}
