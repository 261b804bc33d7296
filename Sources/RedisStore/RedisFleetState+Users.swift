import SIWACore

/// Users changed through the control API, shared by the fleet: `<prefix>fu` (hash: user id → state),
/// `<prefix>fz` (sorted set: user id scored by the version of their latest change), `<prefix>fv` (the
/// version counter) and `<prefix>fe` (the epoch, random, set on the first change). One entry per user
/// changed, so the user cap bounds them (docs/limits.md). Each step is one script.
extension RedisFleetState {
    /// ARGV: prefix, user id, state, new epoch.
    static let publishUserScript = """
        redis.call('SET', ARGV[1] .. 'fe', ARGV[4], 'NX')
        local epoch = redis.call('GET', ARGV[1] .. 'fe')
        local version = redis.call('INCR', ARGV[1] .. 'fv')
        redis.call('HSET', ARGV[1] .. 'fu', ARGV[2], ARGV[3])
        redis.call('ZADD', ARGV[1] .. 'fz', version, ARGV[2])
        return {epoch, version}
        """

    /// ARGV: prefix, epoch of the caller's cursor, its version, limit. Returns epoch, version reached,
    /// then id and state pairs.
    static let userChangesScript = """
        local epoch = redis.call('GET', ARGV[1] .. 'fe')
        if not epoch then return {} end
        local since = 0
        if epoch == ARGV[2] then since = tonumber(ARGV[3]) end
        local found = redis.call('ZRANGEBYSCORE', ARGV[1] .. 'fz', '(' .. since, '+inf', 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[4]))
        local reply = {epoch, tostring(since)}
        for i = 1, #found, 2 do
            reply[2] = found[i + 1]
            reply[#reply + 1] = found[i]
            reply[#reply + 1] = redis.call('HGET', ARGV[1] .. 'fu', found[i]) or ''
        end
        return reply
        """

    package func publishUser(id: String, text: String) throws(StoreUnavailable) -> FleetCursor {
        let epoch = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let reply = try call(["EVAL", Self.publishUserScript, "0", prefix, id, text, epoch])
        guard let parts = reply.elements, parts.count == 2, let current = parts[0].string,
            let version = parts[1].integer
        else { throw StoreUnavailable("user publication answered \(reply)") }
        return FleetCursor(epoch: current, version: version)
    }

    package func userChanges(after cursor: FleetCursor?, limit: Int) throws(StoreUnavailable) -> (
        cursor: FleetCursor?, changes: [(id: String, text: String)]
    ) {
        let reply = try call([
            "EVAL", Self.userChangesScript, "0", prefix, cursor?.epoch ?? "", String(cursor?.version ?? 0),
            String(max(1, limit)),
        ])
        guard let parts = reply.elements else { throw StoreUnavailable("user changes answered \(reply)") }
        guard parts.count >= 2 else { return (nil, []) }
        guard let epoch = parts[0].string, let version = parts[1].string.flatMap({ Int64($0) }), version >= 0 else {
            untrusted.ignored(
                "the user-change cursor", "\(parts[0]) \(parts[1])", because: "not an epoch and a version")
            return (nil, [])
        }
        var changes: [(id: String, text: String)] = []
        var index = 2
        while index + 1 < parts.count {
            if let id = parts[index].string { changes.append((id, parts[index + 1].string ?? "")) }
            index += 2
        }
        return (FleetCursor(epoch: epoch, version: version), changes)
    }
}
