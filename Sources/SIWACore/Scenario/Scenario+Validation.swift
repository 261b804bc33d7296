/// One thing wrong with a scenario, located by a path such as `clients[1].redirect_uris[0]`.
public struct ScenarioProblem: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

extension Scenario {
    /// Checks cross-references and value ranges; returns every problem found (empty when valid).
    ///
    /// Key material is not parsed here (that needs JOSE); `ScenarioKeys(loading:)` reports bad PEMs.
    public func validate() -> [ScenarioProblem] {
        var problems: [ScenarioProblem] = []
        func report(_ path: String, _ message: String) {
            problems.append(ScenarioProblem(path: path, message: message))
        }

        let teamIDs = Set(teams.map(\.id))
        for (index, team) in teams.enumerated() {
            if !Self.isTeamID(team.id) {
                report("teams[\(index)].id", "team id '\(team.id)' must be 10 uppercase letters or digits")
            }
            if teams.prefix(index).contains(where: { $0.id == team.id }) {
                report("teams[\(index)].id", "duplicate team id '\(team.id)'")
            }
            for (keyIndex, key) in team.clientSecretKeys.enumerated() {
                if key.kid.isEmpty { report("teams[\(index)].keys[\(keyIndex)].kid", "key id must not be empty") }
                if team.clientSecretKeys.prefix(keyIndex).contains(where: { $0.kid == key.kid }) {
                    report("teams[\(index)].keys[\(keyIndex)].kid", "duplicate key id '\(key.kid)'")
                }
            }
        }

        for (index, client) in clients.enumerated() {
            let path = "clients[\(index)]"
            if client.id.isEmpty { report("\(path).id", "client id must not be empty") }
            if clients.prefix(index).contains(where: { $0.id == client.id }) {
                report("\(path).id", "duplicate client id '\(client.id)'")
            }
            if !teamIDs.contains(client.teamID) { report("\(path).team", "unknown team '\(client.teamID)'") }
            if client.kind == .native && !client.redirectURIs.isEmpty {
                report("\(path).redirect_uris", "a native App ID has no return URLs (its codes carry no redirect_uri)")
            }
            for (uriIndex, uri) in client.redirectURIs.enumerated() where !Self.isAbsoluteHTTPURL(uri) {
                report(
                    "\(path).redirect_uris[\(uriIndex)]", "'\(uri)' is not an absolute http(s) URL without a fragment")
            }
        }

        let clientIDs = Set(clients.map(\.id))
        for (index, group) in appGroups.enumerated() {
            if appGroups.prefix(index).contains(where: { $0.id == group.id }) {
                report("app_groups[\(index)].id", "duplicate app group '\(group.id)'")
            }
            if !clientIDs.contains(group.primaryAppID) {
                report("app_groups[\(index)].primary", "unknown client '\(group.primaryAppID)'")
            }
            for (clientIndex, clientID) in group.clientIDs.enumerated() {
                if !clientIDs.contains(clientID) {
                    report("app_groups[\(index)].clients[\(clientIndex)]", "unknown client '\(clientID)'")
                }
                if appGroups.prefix(index).contains(where: { $0.clientIDs.contains(clientID) }) {
                    report(
                        "app_groups[\(index)].clients[\(clientIndex)]",
                        "client '\(clientID)' is already in another app group")
                }
            }
        }

        for (index, user) in users.enumerated() {
            let path = "users[\(index)]"
            if user.id.isEmpty { report("\(path).id", "user id must not be empty") }
            if users.prefix(index).contains(where: { $0.id == user.id }) {
                report("\(path).id", "duplicate user id '\(user.id)'")
            }
            if user.sub.isEmpty { report("\(path).sub", "sub must not be empty") }
            if users.prefix(index).contains(where: { $0.sub == user.sub }) {
                report("\(path).sub", "duplicate sub '\(user.sub)'")
            }
            if user.privateEmail && user.relayEmail == nil {
                report("\(path).relay_email", "a private-email user needs a relay address")
            }
        }

        if signingKeys.keys.isEmpty { report("signing_keys", "at least one signing key is required") }
        let signers = signingKeys.keys.filter(\.signs)
        if !signingKeys.keys.isEmpty && signers.isEmpty {
            report("signing_keys", "exactly one key must have signs: true (none has)")
        }
        if signers.count > 1 { report("signing_keys", "exactly one key must have signs: true (\(signers.count) have)") }
        for (index, key) in signingKeys.keys.enumerated() {
            if key.kid.isEmpty { report("signing_keys[\(index)].kid", "kid must not be empty") }
            if signingKeys.keys.prefix(index).contains(where: { $0.kid == key.kid }) {
                report("signing_keys[\(index)].kid", "duplicate kid '\(key.kid)'")
            }
        }

        let positive: [(String, Int64)] = [
            ("settings.id_token_lifetime", settings.idTokenLifetimeSeconds),
            ("settings.code_lifetime", settings.codeLifetimeSeconds),
            ("settings.access_token_lifetime", settings.accessTokenLifetimeSeconds),
            ("settings.client_secret_max_lifetime", settings.clientSecretMaxLifetimeSeconds),
        ]
        for (path, value) in positive where value <= 0 {
            report(path, "must be a positive number of seconds (got \(value))")
        }
        if settings.clientSecretClockSkewSeconds < 0 {
            report("settings.client_secret_clock_skew", "must not be negative")
        }
        if settings.issuer.isEmpty { report("settings.issuer", "must not be empty") }
        return problems
    }

    static func isTeamID(_ id: String) -> Bool {
        id.utf8.count == 10 && id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) }
    }

    static func isAbsoluteHTTPURL(_ uri: String) -> Bool {
        (uri.hasPrefix("https://") || uri.hasPrefix("http://")) && !uri.contains("#")
            && !uri.contains(" ") && uri.split(separator: "/", omittingEmptySubsequences: false).count >= 3
            && !(uri.split(separator: "/", omittingEmptySubsequences: false)[2].isEmpty)
    }
}
