/// One thing wrong with a scenario, located by a path such as `clients[1].redirect_uris[0]`.
package struct ScenarioProblem: Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var message: String

    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    package var description: String { "\(path): \(message)" }
}

extension Scenario {
    /// Checks cross-references and value ranges; returns every problem found (empty when valid).
    ///
    /// Linear in the scenario's size: duplicates are found with sets, never by rescanning earlier
    /// entries (40,000 users took 29 s that way), since every runtime change validates the result.
    /// Key material is not parsed here (that needs JOSE); `ScenarioKeys(loading:)` reports bad PEMs.
    package func validate() -> [ScenarioProblem] {
        var problems: [ScenarioProblem] = []
        func report(_ path: String, _ message: String) {
            problems.append(ScenarioProblem(path: path, message: message))
        }

        let teamIDs = Set(teams.map(\.id))
        var seenTeams = Set<String>()
        for (index, team) in teams.enumerated() {
            if !Self.isTeamID(team.id) {
                report("teams[\(index)].id", "team id '\(team.id)' must be 10 uppercase letters or digits")
            }
            if !seenTeams.insert(team.id).inserted {
                report("teams[\(index)].id", "duplicate team id '\(team.id)'")
            }
            var seenKeys = Set<String>()
            for (keyIndex, key) in team.clientSecretKeys.enumerated() {
                if key.kid.isEmpty { report("teams[\(index)].keys[\(keyIndex)].kid", "key id must not be empty") }
                if !seenKeys.insert(key.kid).inserted {
                    report("teams[\(index)].keys[\(keyIndex)].kid", "duplicate key id '\(key.kid)'")
                }
            }
        }

        var seenClients = Set<String>()
        for (index, client) in clients.enumerated() {
            let path = "clients[\(index)]"
            if client.id.isEmpty { report("\(path).id", "client id must not be empty") }
            if !seenClients.insert(client.id).inserted {
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

        let clientIDs = seenClients
        var seenGroups = Set<String>()
        var groupedClients = Set<String>()
        for (index, group) in appGroups.enumerated() {
            if !seenGroups.insert(group.id).inserted {
                report("app_groups[\(index)].id", "duplicate app group '\(group.id)'")
            }
            if !clientIDs.contains(group.primaryAppID) {
                report("app_groups[\(index)].primary", "unknown client '\(group.primaryAppID)'")
            }
            for (clientIndex, clientID) in group.clientIDs.enumerated() {
                if !clientIDs.contains(clientID) {
                    report("app_groups[\(index)].clients[\(clientIndex)]", "unknown client '\(clientID)'")
                }
                if groupedClients.contains(clientID) {
                    report(
                        "app_groups[\(index)].clients[\(clientIndex)]",
                        "client '\(clientID)' is already in another app group")
                }
            }
            groupedClients.formUnion(group.clientIDs)
        }

        var seenUsers = Set<String>()
        var seenSubs = Set<String>()
        for (index, user) in users.enumerated() {
            let duplicateID = !seenUsers.insert(user.id).inserted
            let duplicateSub = !seenSubs.insert(user.sub).inserted
            guard duplicateID || duplicateSub || Self.userHasProblems(user) else { continue }
            problems += Self.problems(ofUser: user, at: index)
            if duplicateID { report("users[\(index)].id", "duplicate user id '\(user.id)'") }
            if duplicateSub { report("users[\(index)].sub", "duplicate sub '\(user.sub)'") }
        }

        if signingKeys.keys.isEmpty { report("signing_keys", "at least one signing key is required") }
        let signers = signingKeys.keys.filter(\.signs)
        if !signingKeys.keys.isEmpty && signers.isEmpty {
            report("signing_keys", "exactly one key must have signs: true (none has)")
        }
        if signers.count > 1 { report("signing_keys", "exactly one key must have signs: true (\(signers.count) have)") }
        var seenKids = Set<String>()
        for (index, key) in signingKeys.keys.enumerated() {
            if key.kid.isEmpty { report("signing_keys[\(index)].kid", "kid must not be empty") }
            if !seenKids.insert(key.kid).inserted {
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

    /// What is wrong with one user on its own (uniqueness aside): the rules `validate()` applies to
    /// every user and runtime user changes apply to the changed one.
    package static func problems(ofUser user: UserProfile, at index: Int) -> [ScenarioProblem] {
        var problems: [ScenarioProblem] = []
        if user.id.isEmpty {
            problems.append(ScenarioProblem(path: "users[\(index)].id", message: "user id must not be empty"))
        }
        if user.sub.isEmpty {
            problems.append(ScenarioProblem(path: "users[\(index)].sub", message: "sub must not be empty"))
        }
        if user.privateEmail && user.relayEmail == nil {
            problems.append(
                ScenarioProblem(
                    path: "users[\(index)].relay_email", message: "a private-email user needs a relay address"))
        }
        if let (field, problem) = user.malformedAddress {
            problems.append(ScenarioProblem(path: "users[\(index)].\(field)", message: "\(field) \(problem)"))
        }
        return problems
    }

    /// Whether `problems(ofUser:at:)` has anything to say (without building paths: the common case).
    static func userHasProblems(_ user: UserProfile) -> Bool {
        user.id.isEmpty || user.sub.isEmpty || (user.privateEmail && user.relayEmail == nil)
            || user.malformedAddress != nil
    }

    package static func isTeamID(_ id: String) -> Bool {
        id.utf8.count == 10 && id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) }
    }

    package static func isAbsoluteHTTPURL(_ uri: String) -> Bool {
        (uri.hasPrefix("https://") || uri.hasPrefix("http://")) && !uri.contains("#")
            && !uri.contains(" ") && uri.split(separator: "/", omittingEmptySubsequences: false).count >= 3
            && !(uri.split(separator: "/", omittingEmptySubsequences: false)[2].isEmpty)
    }
}
