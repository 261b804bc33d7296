import RESP
import SIWACore

/// The fleet journal (`FleetJournal`) as one Redis stream, `<prefix>j`. Entries get the IDs `0-1`,
/// `0-2`, … from `XADD … 0-*` (Redis 7: the sequence part generated), so the stream's own counter is
/// the fleet-wide sequence and survives a clear (`XTRIM MAXLEN 0` keeps the stream's last ID);
/// `POST /mock/reset` removes the key with the rest of the prefix, and numbering starts at 1 again.
/// Capped with `MAXLEN ~ capacity`: Redis trims whole nodes, so a few more entries than `capacity`
/// may stay (docs/limits.md).
package final class RedisFleetJournal: FleetJournal {
    let client: RedisClient
    package let key: String
    package let capacity: Int

    package init(client: RedisClient, prefix: String, capacity: Int) {
        self.client = client
        self.key = prefix + "j"
        self.capacity = max(1, capacity)
    }

    package func append(_ records: [String]) throws(StoreUnavailable) {
        guard !records.isEmpty else { return }
        let cap = Array(String(capacity).utf8)
        let commands = records.map { record -> [[UInt8]] in
            [
                Array("XADD".utf8), Array(key.utf8), Array("MAXLEN".utf8), [UInt8(ascii: "~")], cap,
                Array("0-*".utf8), [UInt8(ascii: "e")], Array(record.utf8),
            ]
        }
        let replies: [RESPValue]
        do {
            replies = try client.send(commands)
        } catch {
            throw StoreUnavailable(error.message)
        }
        for reply in replies {
            if case .error(let message) = reply { throw StoreUnavailable("XADD answered \(message)") }
        }
    }

    package func records(after: Int, count: Int) throws(StoreUnavailable) -> [(sequence: Int, text: String)] {
        let reply = try call(["XRANGE", key, "(0-\(max(0, after))", "+", "COUNT", String(max(1, count))])
        guard let entries = reply.elements else { throw StoreUnavailable("XRANGE answered \(reply)") }
        var records: [(sequence: Int, text: String)] = []
        records.reserveCapacity(entries.count)
        for entry in entries {
            guard let parts = entry.elements, parts.count == 2, let id = parts[0].string,
                let sequence = Self.sequence(of: id), let fields = parts[1].elements
            else { throw StoreUnavailable("XRANGE answered an entry this mock did not write: \(entry)") }
            let pairs = RedisGrantStore.fields(fields[...])
            // A foreign entry (not written by a mock), or one out of order (not above `after` and the
            // previous one: a store that is not Redis), is skipped rather than failing the whole page.
            guard sequence > (records.last?.sequence ?? max(0, after)) else { continue }
            if let text = pairs["e"] { records.append((sequence, text)) }
        }
        return records
    }

    package func clear() throws(StoreUnavailable) -> Int {
        let reply = try call(["XTRIM", key, "MAXLEN", "0"])
        guard let removed = reply.integer else { throw StoreUnavailable("XTRIM answered \(reply)") }
        return Int(removed)
    }

    /// `0-N` → N.
    static func sequence(of id: String) -> Int? {
        guard id.hasPrefix("0-") else { return nil }
        return Int(id.dropFirst(2))
    }

    func call(_ command: [String]) throws(StoreUnavailable) -> RESPValue {
        do {
            return try client.send(command)
        } catch {
            throw StoreUnavailable(error.message)
        }
    }
}
