import RESP
import SIWACore

/// The fleet's shared runtime state (`FleetState`) in one Redis hash, `<prefix>f`: per topic the
/// state (`clock`, `keys`) and its stamp (`clock:s`, `keys:s`), and `s`, the stamp of the latest
/// publication. A publication is one `HSET` (atomic); replicas poll `s` with one `HGET` and read the
/// hash only when it moved. Stamps are random 64-bit values, so they never repeat after
/// `POST /mock/reset` removes the hash. Bounded by its topics: the key set (≤ 32 keys, about 2 KB
/// each) is the largest field (docs/limits.md).
package final class RedisFleetState: FleetState {
    let client: RedisClient
    /// The hash's key.
    package let key: String
    let prefix: String
    /// Values read back that fail validation: ignored, each logged once.
    let untrusted: UntrustedValueLog

    package init(client: RedisClient, prefix: String, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.client = client
        self.prefix = prefix
        self.key = prefix + "f"
        self.untrusted = UntrustedValueLog(log: log)
    }

    package func publish(_ topic: FleetTopic, value: String) throws(StoreUnavailable) -> String {
        let stamp = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let reply = try call(["HSET", key, topic.rawValue, value, topic.rawValue + ":s", stamp, "s", stamp])
        if case .error(let message) = reply { throw StoreUnavailable("HSET answered \(message)") }
        return stamp
    }

    package func currentStamp() throws(StoreUnavailable) -> String? {
        let reply = try call(["HGET", key, "s"])
        if case .error(let message) = reply { throw StoreUnavailable("HGET answered \(message)") }
        return reply.string
    }

    package func read() throws(StoreUnavailable) -> FleetSnapshot {
        let reply = try call(["HGETALL", key])
        guard let elements = reply.elements else { throw StoreUnavailable("HGETALL answered \(reply)") }
        let fields = RedisGrantStore.fields(elements[...])
        var topics: [FleetTopic: FleetSnapshot.Published] = [:]
        for topic in FleetTopic.allCases {
            if let value = fields[topic.rawValue], let stamp = fields[topic.rawValue + ":s"] {
                topics[topic] = .init(stamp: stamp, value: value)
            }
        }
        return FleetSnapshot(stamp: fields["s"], topics: topics)
    }

    func call(_ command: [String]) throws(StoreUnavailable) -> RESPValue {
        do {
            return try client.send([command.map { Array($0.utf8) }])[0]
        } catch {
            throw StoreUnavailable(error.message)
        }
    }
}
