import RESP
import SIWACore

/// The fleet's timeline run (`FleetTimelineRun`): `<prefix>tlrun` holds `<generation> <start>`, and
/// `<prefix>tl:<generation>` (hash) each request-triggered entry's count (`c:<index>`) and every fired
/// entry (`f:<index>`). A fired entry is claimed with `HSETNX`, so exactly one replica fires it and
/// notifies. The run's hash is dropped a week after its last use, like fault counters, so runs left
/// behind by resets stay bounded (docs/limits.md).
extension RedisFleetState {
    var timelineRunKey: String { prefix + "tlrun" }

    func timelineKey(_ generation: String) -> String { prefix + "tl:" + generation }

    /// ARGV: run key, run text, replace (1/0). Returns the run in force.
    static let timelineRunScript = """
        if ARGV[3] == '1' then
            redis.call('SET', ARGV[1], ARGV[2])
            return ARGV[2]
        end
        local current = redis.call('GET', ARGV[1])
        if current then return current end
        redis.call('SET', ARGV[1], ARGV[2])
        return ARGV[2]
        """

    /// ARGV: hash key, TTL, then per entry: index, threshold. Returns per entry: count, claimed (1/0).
    static let countTimelineScript = """
        local reply = {}
        for i = 3, #ARGV, 2 do
            local count = redis.call('HINCRBY', ARGV[1], 'c:' .. ARGV[i], 1)
            local claimed = 0
            if count >= tonumber(ARGV[i + 1]) then
                claimed = redis.call('HSETNX', ARGV[1], 'f:' .. ARGV[i], 1)
            end
            reply[#reply + 1] = count
            reply[#reply + 1] = claimed
        end
        redis.call('EXPIRE', ARGV[1], ARGV[2])
        return reply
        """

    package func timelineRun(proposing run: FleetTimelineRun, replacing: Bool) throws(StoreUnavailable)
        -> FleetTimelineRun
    {
        let reply = try call(["EVAL", Self.timelineRunScript, "0", timelineRunKey, run.text, replacing ? "1" : "0"])
        guard let text = reply.string else { throw StoreUnavailable("the timeline run answered \(reply)") }
        guard let stored = FleetTimelineRun(text: text) else {
            // Not ours to read (damage, or another program wrote the key): start this run over it.
            untrusted.ignored("the timeline run", text, because: "not '<hex generation> <start 1970-9999 in ms>'")
            return try timelineRun(proposing: run, replacing: true)
        }
        return stored
    }

    package func timelineProgress(generation: String) throws(StoreUnavailable)
        -> (run: FleetTimelineRun?, fired: Set<Int>)
    {
        let replies: [RESPValue]
        do {
            replies = try client.send([
                ["GET", timelineRunKey].map { Array($0.utf8) },
                ["HGETALL", timelineKey(generation)].map { Array($0.utf8) },
            ])
        } catch {
            throw StoreUnavailable(error.message)
        }
        guard replies.count == 2, let elements = replies[1].elements else {
            throw StoreUnavailable("the timeline progress answered \(replies)")
        }
        if case .error(let message) = replies[0] { throw StoreUnavailable("GET answered \(message)") }
        let fired = Set(
            RedisGrantStore.fields(elements[...]).keys.compactMap { field -> Int? in
                field.hasPrefix("f:") ? Int(field.dropFirst(2)).flatMap { $0 >= 0 ? $0 : nil } : nil
            })
        guard let text = replies[0].string else { return (nil, fired) }
        guard let run = FleetTimelineRun(text: text) else {
            untrusted.ignored("the timeline run", text, because: "not '<hex generation> <start 1970-9999 in ms>'")
            return (nil, fired)
        }
        return (run, fired)
    }

    package func countTimeline(generation: String, entries: [TimelineEngine.Pending]) throws(StoreUnavailable)
        -> [FleetTimelineCount]
    {
        guard !entries.isEmpty else { return [] }
        var command = ["EVAL", Self.countTimelineScript, "0", timelineKey(generation), String(Self.counterTTLSeconds)]
        for entry in entries { command += [String(entry.index), String(entry.threshold)] }
        let reply = try call(command)
        guard let parts = reply.elements, parts.count == 2 * entries.count else {
            throw StoreUnavailable("timeline counting answered \(reply)")
        }
        return entries.indices.map { position in
            guard let count = parts[2 * position].integer, count >= 0 else {
                untrusted.ignored(
                    "the count of timeline entry \(entries[position].index)", "\(parts[2 * position])",
                    because: "not a count from 0")
                return FleetTimelineCount(count: 0, claimed: false)
            }
            return FleetTimelineCount(count: Int(count), claimed: parts[2 * position + 1].integer == 1)
        }
    }

    package func claimTimelineEntry(generation: String, index: Int) throws(StoreUnavailable) -> Bool {
        let key = timelineKey(generation)
        let replies: [RESPValue]
        do {
            replies = try client.send([
                ["HSETNX", key, "f:\(index)", "1"].map { Array($0.utf8) },
                ["EXPIRE", key, String(Self.counterTTLSeconds)].map { Array($0.utf8) },
            ])
        } catch {
            throw StoreUnavailable(error.message)
        }
        guard let claimed = replies.first?.integer else {
            throw StoreUnavailable("HSETNX answered \(replies.first.map { "\($0)" } ?? "nothing")")
        }
        return claimed == 1
    }
}
