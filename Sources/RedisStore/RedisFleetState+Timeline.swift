import RESP
import SIWACore

/// The fleet's timeline run (`FleetTimelineRun`): `<prefix>tlrun` holds `<generation> <start>`, and
/// `<prefix>tl:<generation>` (hash) each request-triggered entry's count (`c:<index>`) and every fired
/// entry (`f:<index>`, its place in the firing order, from the counter `seq`). An entry is claimed in one
/// script that sets `f:<index>` only when it is absent, so exactly one replica fires it and notifies, and
/// a replica that joins later replays the fired entries in the order they fired. The run's hash is
/// dropped a week after its last use, like fault counters, so runs left behind by resets stay bounded
/// (docs/limits.md).
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

    /// Claims entry `index` in hash `key`: 1 when this call fired it (recording its place in the order).
    static let claimFunction = """
        local function claim(key, index)
            if redis.call('HEXISTS', key, 'f:' .. index) == 1 then return 0 end
            redis.call('HSET', key, 'f:' .. index, redis.call('HINCRBY', key, 'seq', 1))
            return 1
        end
        """

    /// ARGV: hash key, TTL, then per entry: index, threshold. Returns per entry: count, claimed (1/0).
    static let countTimelineScript =
        claimFunction + "\n" + """
            local reply = {}
            for i = 3, #ARGV, 2 do
                local count = redis.call('HINCRBY', ARGV[1], 'c:' .. ARGV[i], 1)
                local claimed = 0
                if count >= tonumber(ARGV[i + 1]) then claimed = claim(ARGV[1], ARGV[i]) end
                reply[#reply + 1] = count
                reply[#reply + 1] = claimed
            end
            redis.call('EXPIRE', ARGV[1], ARGV[2])
            return reply
            """

    /// ARGV: hash key, TTL, index. Returns 1 when this call fired the entry.
    static let claimTimelineScript =
        claimFunction + "\n" + """
            local claimed = claim(ARGV[1], ARGV[3])
            redis.call('EXPIRE', ARGV[1], ARGV[2])
            return claimed
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
        -> (run: FleetTimelineRun?, fired: [Int])
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
        let fired = firingOrder(RedisGrantStore.fields(elements[...]))
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
        let ttl = String(Self.counterTTLSeconds)
        let reply = try call(["EVAL", Self.claimTimelineScript, "0", timelineKey(generation), ttl, String(index)])
        guard let claimed = reply.integer else { throw StoreUnavailable("claiming timeline entry answered \(reply)") }
        return claimed == 1
    }

    /// ARGV: hash key, TTL, index. Marks the entry finished (`d:<index>`).
    static let finishTimelineScript = """
        redis.call('HSET', ARGV[1], 'd:' .. ARGV[3], 1)
        redis.call('EXPIRE', ARGV[1], ARGV[2])
        return 1
        """

    /// ARGV: hash key, index. 1 when an entry with an earlier place than the entry's has no `d:` mark.
    static let unfinishedScript = """
        local mine = tonumber(redis.call('HGET', ARGV[1], 'f:' .. ARGV[2]))
        if not mine then return 0 end
        local all = redis.call('HGETALL', ARGV[1])
        for i = 1, #all, 2 do
            if string.sub(all[i], 1, 2) == 'f:' then
                local place = tonumber(all[i + 1])
                if place and place < mine and redis.call('HEXISTS', ARGV[1], 'd:' .. string.sub(all[i], 3)) == 0 then
                    return 1
                end
            end
        end
        return 0
        """

    package func finishTimelineEntry(generation: String, index: Int) throws(StoreUnavailable) {
        let ttl = String(Self.counterTTLSeconds)
        let reply = try call(["EVAL", Self.finishTimelineScript, "0", timelineKey(generation), ttl, String(index)])
        guard reply.integer == 1 else { throw StoreUnavailable("finishing timeline entry answered \(reply)") }
    }

    package func timelineEntriesUnfinished(generation: String, before index: Int) throws(StoreUnavailable) -> Bool {
        let reply = try call(["EVAL", Self.unfinishedScript, "0", timelineKey(generation), String(index)])
        guard let unfinished = reply.integer else {
            throw StoreUnavailable("the timeline's unfinished entries answered \(reply)")
        }
        return unfinished == 1
    }

    /// The fired entries of a run's hash in the order they fired. A place that is not a count from 1
    /// (damage, or a run written before places were kept) sorts after every real place, by index.
    func firingOrder(_ fields: [String: String]) -> [Int] {
        var fired: [(place: Int, index: Int)] = []
        for (field, value) in fields where field.hasPrefix("f:") {
            guard let index = Int(field.dropFirst(2)), index >= 0 else { continue }
            guard value.count <= 18, let place = Int(value), place >= 1 else {
                untrusted.ignored("the place of fired timeline entry \(index)", value, because: "not a count from 1")
                fired.append((.max, index))
                continue
            }
            fired.append((place, index))
        }
        return fired.sorted { ($0.place, $0.index) < ($1.place, $1.index) }.map(\.index)
    }
}
