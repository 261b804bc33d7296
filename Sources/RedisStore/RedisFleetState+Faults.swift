import SIWACore

/// Fault rule counters shared by the fleet, so `times: 2` fires twice across all replicas and `after: 3`
/// lets three requests through fleet-wide: `<prefix>fc:<rule id>` (hash: `m` matched, `f` fired), one per
/// rule id, dropped a week after its last use (`counterTTLSeconds`), so rule ids that come and go stay
/// bounded (docs/limits.md). One script per request decides like the engine (`FleetFaultOutcome.decide`).
extension RedisFleetState {
    static let counterTTLSeconds = 7 * 86_400

    /// ARGV: prefix, TTL, then per rule: id, after, times (-1: none), draw hit (1/0). Returns the firing
    /// position (1-based, 0: none), then matched and fired per rule.
    static let countFaultsScript = """
        local firing = 0
        local reply = {0}
        local rules = (#ARGV - 2) / 4
        for i = 1, rules do
            local base = 2 + (i - 1) * 4
            local key = ARGV[1] .. 'fc:' .. ARGV[base + 1]
            local matched = redis.call('HINCRBY', key, 'm', 1)
            local fired = tonumber(redis.call('HGET', key, 'f') or '0')
            local times = tonumber(ARGV[base + 3])
            if firing == 0 and matched > tonumber(ARGV[base + 2]) and (times < 0 or fired < times)
                and ARGV[base + 4] == '1' then
                fired = redis.call('HINCRBY', key, 'f', 1)
                firing = i
            end
            redis.call('EXPIRE', key, ARGV[2])
            reply[#reply + 1] = matched
            reply[#reply + 1] = fired
        end
        reply[1] = firing
        return reply
        """

    package func countFaults(_ rules: [FleetFaultCount]) throws(StoreUnavailable) -> FleetFaultOutcome {
        var command = ["EVAL", Self.countFaultsScript, "0", prefix, String(Self.counterTTLSeconds)]
        for rule in rules {
            command += [rule.ruleID, String(rule.after), String(rule.times ?? -1), rule.drawHit ? "1" : "0"]
        }
        let reply = try call(command)
        guard let parts = reply.elements, parts.count == 1 + 2 * rules.count, let firing = parts[0].integer else {
            throw StoreUnavailable("fault counting answered \(reply)")
        }
        // Counters are the script's, but the keys are anyone's: a firing position outside the list or
        // a negative count (a damaged or foreign key) is ignored like no counting at all.
        guard (0...Int64(rules.count)).contains(firing) else {
            untrusted.ignored("a fault rule's firing position", "\(firing)", because: "not 0 to \(rules.count)")
            return FleetFaultOutcome(firing: nil, counts: [])
        }
        var counts: [(matched: Int, fired: Int)] = []
        for index in rules.indices {
            guard let matched = parts[1 + 2 * index].integer, let fired = parts[2 + 2 * index].integer,
                matched >= 0, fired >= 0
            else {
                untrusted.ignored(
                    "the counters of fault rule '\(rules[index].ruleID)'",
                    "\(parts[1 + 2 * index]) \(parts[2 + 2 * index])", because: "not two counts from 0")
                return FleetFaultOutcome(firing: nil, counts: [])
            }
            counts.append((Int(matched), Int(fired)))
        }
        return FleetFaultOutcome(firing: firing == 0 ? nil : Int(firing) - 1, counts: counts)
    }

    package func resetFaultCounters(_ ruleIDs: [String]) throws(StoreUnavailable) {
        guard !ruleIDs.isEmpty else { return }
        _ = try call(["DEL"] + ruleIDs.map { prefix + "fc:" + $0 })
    }
}
