import SIWACore
import ScenarioModel

extension RedisGrantStore {
    package func lookUpCode(_ code: String, now: Int64) throws(StoreUnavailable) -> GrantLookup {
        let fields = try record("c", code)
        switch fields["s"] {
        case nil: return .unknown
        case "i":
            guard let expiresAt = Int64(fields["exp"] ?? ""), now < expiresAt, let grant = Self.grant(fields) else {
                return .expired
            }
            return .live(grant)
        case "r": return .used
        case "x": return .revoked
        default: return .expired
        }
    }

    package func lookUpRefreshToken(_ token: String) throws(StoreUnavailable) -> GrantLookup {
        let fields = try record("r", token)
        return Self.grant(fields).map { .live($0) } ?? .unknown
    }

    package func liveTokenOwner(_ token: String, now: Int64) throws(StoreUnavailable) -> String? {
        let replies = try pipeline([["HGET", key("r", token), "cl"], ["HMGET", key("a", token), "cl", "exp"]])
        if let owner = replies[0].string { return owner }
        guard let access = replies[1].elements, access.count == 2, let owner = access[0].string,
            let expiresAt = access[1].string.flatMap({ Int64($0) }), expiresAt > now
        else { return nil }
        return owner
    }

    /// The owner of a code, refresh token or access token (the journal's user when the handler did not
    /// learn it from the store's answer): the three `u` fields in one pipelined round trip.
    package func userID(forToken token: String) throws(StoreUnavailable) -> String? {
        let replies = try pipeline(["c", "r", "a"].map { ["HGET", key($0, token), "u"] })
        return replies.lazy.compactMap(\.string).first
    }

    /// The `kind` hash of `token` (`HGETALL`).
    func record(_ kind: String, _ token: String) throws(StoreUnavailable) -> [String: String] {
        Self.fields(try call(["HGETALL", key(kind, token)]).elements?[...] ?? [])
    }

    package func consentStatus(userID: String, consentGroupID: String) throws(StoreUnavailable) -> ConsentStatus {
        let pair = Self.pair(userID, consentGroupID)
        let replies = try pipeline([["EXISTS", key("k", pair)], ["EXISTS", key("e", pair)]])
        if replies[0].integer == 1 { return .active }
        return replies[1].integer == 1 ? .revoked : ConsentStatus.none
    }

    package func consentGroupIDs(userID: String, includingRevoked: Bool) throws(StoreUnavailable) -> [String] {
        let values = try run("groups", RedisScripts.groups, [prefix, userID]).elements ?? []
        var groups: [String] = []
        var index = 0
        while index + 1 < values.count {
            if let group = values[index].string, let status = values[index + 1].string,
                status == "a" || (includingRevoked && status == "e")
            {
                groups.append(group)
            }
            index += 2
        }
        return groups.sorted()
    }

    package func endAuthorization(userID: String, consentGroupID: String) throws(StoreUnavailable) {
        _ = try run("endOne", RedisScripts.endOne, [prefix, userID, consentGroupID])
    }

    @discardableResult
    package func endAllAuthorizations(userID: String) throws(StoreUnavailable) -> [String] {
        let reply = try run("endAll", RedisScripts.endAll, [prefix, userID])
        return (reply.elements ?? []).compactMap(\.string).sorted()
    }

    /// Seeds returning users once per prefix: the first replica to start (or the first after a reset).
    package func seedReturningUsers(of scenario: Scenario, now: Int64) throws(StoreUnavailable) {
        let groups = Set(scenario.clients.map { scenario.consentGroupID(forClient: $0.id) }).sorted()
        var arguments = [prefix, String(now)]
        for user in scenario.users where user.consentedScopes != nil && user.credentialState == .authorized {
            for group in groups { arguments += [user.id, group, Self.scopeText(user.consentedScopes ?? [])] }
        }
        _ = try run("seed", RedisScripts.seed, arguments)
    }

    /// Redis collects expired entries itself (TTLs): nothing to do.
    package func collectExpired(now: Int64) throws(StoreUnavailable) -> Int { 0 }

    /// Counts by scanning this prefix's keys (tests and the control API; O(keys)).
    package func tableCounts() throws(StoreUnavailable) -> IdentityStore.Counts {
        var counts = IdentityStore.Counts(codes: 0, accessTokens: 0, refreshTokens: 0, consents: 0)
        for key in try keys() {
            switch key.dropFirst(prefix.count).prefix(2) {
            case "c:": counts.codes += 1
            case "a:": counts.accessTokens += 1
            case "r:": counts.refreshTokens += 1
            case "k:": counts.consents += 1
            default: break
            }
        }
        return counts
    }

    /// Deletes every key of this prefix (reset, scenario replacement).
    package func removeAll() throws(StoreUnavailable) {
        let all = try keys()
        var start = 0
        while start < all.count {
            let batch = Array(all[start..<min(start + 500, all.count)])
            _ = try call(["UNLINK"] + batch)
            start += 500
        }
    }

    /// Every key under the prefix, by `SCAN` (never `KEYS`, which blocks Redis). A name the reply holds
    /// outside the prefix is dropped, so a reset never deletes another scenario's key whatever the
    /// store answers; a cursor that is not a number, or a scan past `maximumScanRounds`, is refused.
    func keys() throws(StoreUnavailable) -> [String] {
        var cursor = "0"
        var found: [String] = []
        var rounds = 0
        repeat {
            let reply = try call(["SCAN", cursor, "MATCH", Self.globEscaped(prefix) + "*", "COUNT", "1000"])
            guard let parts = reply.elements, parts.count == 2, let next = parts[0].string,
                (1...20).contains(next.utf8.count), next.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
            else {
                throw StoreUnavailable("SCAN answered \(reply)")
            }
            rounds += 1
            guard rounds <= Self.maximumScanRounds else {
                throw StoreUnavailable("SCAN did not finish within \(Self.maximumScanRounds) rounds")
            }
            cursor = next
            found += (parts[1].elements ?? []).compactMap(\.string).filter { $0.utf8.starts(with: prefix.utf8) }
        } while cursor != "0"
        return found
    }

    /// Rounds of `SCAN … COUNT 1000` one listing may take: 100 million keys in a Redis that holds
    /// nothing else.
    static let maximumScanRounds = 100_000

    /// The prefix with glob characters escaped for `SCAN MATCH`.
    static func globEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "*?[]\\".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
