import ScenarioFormat

extension ScenarioLoader {
    /// `clients: [{id, team, kind: native|services, redirect_uris, app_group, name}]`; `kind` defaults to
    /// `services` when `redirect_uris` is given, else `native`; `team` defaults to the only team.
    func readClients(_ node: Node?, _ context: LoadContext) -> [Client] {
        guard let items = context.sequence(node, at: "clients") else { return [] }
        let defaultTeam = context.teamIDs.count == 1 ? context.teamIDs.first : nil
        return items.enumerated().compactMap { index, item -> Client? in
            let path = "clients[\(index)]"
            guard
                let map = context.mapping(
                    item, allowed: ["id", "team", "kind", "redirect_uris", "app_group", "name", "associated_domains"],
                    at: path),
                let id = readRequiredString(map, "id", path: "\(path).id", context)
            else { return nil }
            let team: String
            if let node = map.optional("team") {
                guard
                    let value = context.read(
                        node, at: "\(path).team", { node throws(ScenarioDiagnostic) in try node.string() })
                else { return nil }
                team = value
            } else if let defaultTeam {
                team = defaultTeam
            } else {
                context.report(item, "missing required key 'team' (needed when there is not exactly one team)")
                return nil
            }
            let uris = context.strings(map.optional("redirect_uris"), at: "\(path).redirect_uris") ?? []
            let kind =
                readChoice(
                    map.optional("kind"), at: "\(path).kind",
                    [("native", Client.Kind.native), ("services", .services)], context)
                ?? (map.optional("redirect_uris") == nil ? .native : .services)
            let group = context.read(
                map.optional("app_group"), { node throws(ScenarioDiagnostic) in try node.string() })
            let name = context.read(map.optional("name"), at: "\(path).name") { node throws(ScenarioDiagnostic) in
                try node.string()
            }
            if let name, let node = map.optional("name"), name.isEmpty || name.utf8.count > Client.maximumNameBytes {
                context.report(node, "a client name has 1 to \(Client.maximumNameBytes) bytes (got \(name.utf8.count))")
            }
            var client = Client(id: id, teamID: team, kind: kind, redirectURIs: uris, appGroupID: group, name: name)
            client.associatedDomains = readAssociatedDomains(
                map.optional("associated_domains"), at: "\(path).associated_domains", context)
            return client
        }
    }

    /// `associated_domains: [webcredentials:example.com, applinks:example.com]`: the entitlement's
    /// `service:domain` entries (https://developer.apple.com/documentation/xcode/supporting-associated-domains).
    func readAssociatedDomains(_ node: Node?, at path: String, _ context: LoadContext) -> [String] {
        guard let node, case .sequence(let items) = node.kind else {
            if let node { context.report(node, "expected a list of 'webcredentials:<domain>' entries") }
            return []
        }
        return items.compactMap { item -> String? in
            guard let entry = context.read(item, { node throws(ScenarioDiagnostic) in try node.string() }) else {
                return nil
            }
            guard let colon = entry.firstIndex(of: ":") else {
                context.report(item, "'\(entry)' needs its service: 'webcredentials:\(entry)'")
                return nil
            }
            let service = String(entry[..<colon])
            let domain = String(entry[entry.index(after: colon)...])
            guard Client.associatedDomainServices.contains(service) else {
                let near = EditDistance.suggestion(for: service, among: Client.associatedDomainServices)
                context.report(
                    item,
                    "unknown service '\(service)'"
                        + (near.map { " (did you mean '\($0)'?)" }
                            ?? " (expected \(Client.associatedDomainServices.joined(separator: ", ")))"))
                return nil
            }
            if let problem = Self.domainProblem(domain) {
                context.report(item, problem)
                return nil
            }
            return entry
        }
    }

    /// Why `domain` is not a bare host name (`example.com`), or nil.
    static func domainProblem(_ domain: String) -> String? {
        if let scheme = domain.firstRange(of: "://") {
            let host = domain[scheme.upperBound...].split(separator: "/").first.map(String.init) ?? ""
            return "'\(domain)' is a URL; write the domain '\(host)'"
        }
        if domain.isEmpty || domain.contains("/") || domain.contains(" ") {
            return "'\(domain)' is not a domain name like example.com"
        }
        return nil
    }

    /// `domains: [{domain, apple_app_site_association}]`: websites and the association file each serves
    /// (JSON text, checked when an app asks for a saved password, so a scenario can hold a broken one).
    func readWebDomains(_ node: Node?, _ context: LoadContext) -> [WebDomain] {
        guard let items = context.sequence(node, at: "domains") else { return [] }
        return items.enumerated().compactMap { index, item -> WebDomain? in
            let path = "domains[\(index)]"
            guard let map = context.mapping(item, allowed: ["domain", "apple_app_site_association"], at: path) else {
                return nil
            }
            let domain = readRequiredString(map, "domain", path: "\(path).domain", context)
            let text = readRequiredString(
                map, "apple_app_site_association", path: "\(path).apple_app_site_association", context)
            guard let domain, let text else { return nil }
            if let problem = Self.domainProblem(domain), let domainNode = map.optional("domain") {
                context.report(domainNode, problem)
                return nil
            }
            return WebDomain(domain: domain, association: Array(text.utf8))
        }
    }

    /// `app_groups: [{id, primary, clients, notification_url}]`; `primary` defaults to the first client.
    /// A group of the built-in scenario may be named by `id` alone (`[{id: com.example.app,
    /// notification_url: …}]`): its `primary` and `clients` come from the built-in group, when the scenario
    /// has those clients (docs/scenarios.md, "app_groups").
    func readAppGroups(_ node: Node?, _ context: LoadContext) -> [AppGroup] {
        guard let items = context.sequence(node, at: "app_groups") else { return [] }
        return items.enumerated().compactMap { index, item -> AppGroup? in
            let path = "app_groups[\(index)]"
            guard let map = context.mapping(item, allowed: ["id", "primary", "clients", "notification_url"], at: path)
            else { return nil }
            let named = context.read(map.optional("id"), at: "\(path).id") { node throws(ScenarioDiagnostic) in
                try node.string()
            }
            let clients: [String]
            var builtInPrimary: String?
            if let listed = map.optional("clients") {
                guard let list = context.strings(listed, at: "\(path).clients") else { return nil }
                clients = list
            } else if let named, let group = Scenario.builtIn.appGroups.first(where: { $0.id == named }),
                group.clientIDs.allSatisfy(context.clientIDs.contains)
            {
                clients = group.clientIDs
                builtInPrimary = group.primaryAppID
            } else {
                context.report(
                    item,
                    "missing required key 'clients' (only a built-in group, e.g. 'id: com.example.app' with the "
                        + "built-in clients, may leave it out)")
                return nil
            }
            let primary =
                context.read(map.optional("primary"), at: "\(path).primary") { node throws(ScenarioDiagnostic) in
                    try node.string()
                }
                ?? builtInPrimary ?? clients.first ?? ""
            let id = named ?? primary
            var url: String?
            if let node = map.optional("notification_url"),
                let value = context.read(node, { node throws(ScenarioDiagnostic) in try node.string() })
            {
                if Scenario.isAbsoluteHTTPURL(value) {
                    url = value
                } else {
                    context.report(node, "'\(value)' is not an absolute http(s) URL")
                }
            }
            return AppGroup(id: id, primaryAppID: primary, clientIDs: clients, notificationURL: url)
        }
    }

    /// `transfers: [{from, to, accepted_at, clients}]` (app transfers between teams).
    func readTransfers(_ node: Node?, _ context: LoadContext) -> [TeamTransfer] {
        guard let items = context.sequence(node, at: "transfers") else { return [] }
        return items.enumerated().compactMap { index, item -> TeamTransfer? in
            let path = "transfers[\(index)]"
            guard let map = context.mapping(item, allowed: ["from", "to", "accepted_at", "clients"], at: path),
                let from = readRequiredString(map, "from", path: "\(path).from", context),
                let to = readRequiredString(map, "to", path: "\(path).to", context),
                let acceptedNode = map.optional("accepted_at")
                    ?? {
                        context.report(item, "missing required key 'accepted_at'")
                        return nil
                    }(),
                let accepted = context.read(acceptedNode, { node throws(ScenarioDiagnostic) in try node.timestamp() }),
                let clients = context.strings(map.optional("clients"), at: "\(path).clients")
            else { return nil }
            for (name, node) in [(from, map.optional("from")!), (to, map.optional("to")!)]
            where !context.teamIDs.contains(name) {
                context.report(node, "unknown team '\(name)'")
            }
            return TeamTransfer(
                fromTeamID: from, toTeamID: to, acceptedAt: accepted.secondsSinceEpoch, clientIDs: clients)
        }
    }
}
