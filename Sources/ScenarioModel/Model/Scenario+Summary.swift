extension Scenario {
    /// One line saying what the scenario defines and what it took from the built-in scenario, as
    /// `siwa-mock check` prints it after `FILE: ok`:
    /// `defines 2 users (alice, bob), 1 fault; built-in: team ABCDE12345, clients com.example.app, …`.
    package var summary: String {
        let inherited = Set(inheritedSections)
        var defined: [String] = []
        if !inherited.contains("teams") { defined.append(Self.count(teams.count, "team", teams.map(\.id))) }
        if !inherited.contains("clients") { defined.append(Self.count(clients.count, "client", clients.map(\.id))) }
        if !inherited.contains("users") { defined.append(Self.count(users.count, "user", users.map(\.id))) }
        if !inherited.contains("signing_keys") {
            defined.append(Self.count(signingKeys.keys.count, "signing key", signingKeys.keys.map(\.kid)))
        }
        if !faults.isEmpty { defined.append(Self.count(faults.count, "fault", faults.map(\.id))) }
        if !timeline.isEmpty { defined.append(Self.count(timeline.count, "timeline entry", [])) }
        if !transfers.isEmpty { defined.append(Self.count(transfers.count, "transfer", [])) }

        var builtIn: [String] = []
        if inherited.contains("teams") { builtIn.append(Self.list("team", teams.map(\.id))) }
        if inherited.contains("clients") { builtIn.append(Self.list("client", clients.map(\.id))) }
        if inherited.contains("users") { builtIn.append(Self.list("user", users.map(\.id))) }
        if inherited.contains("signing_keys") { builtIn.append(Self.list("signing key", signingKeys.keys.map(\.kid))) }

        let definesText = defined.isEmpty ? "defines nothing of its own" : "defines " + defined.joined(separator: ", ")
        return builtIn.isEmpty ? definesText : definesText + "; built-in: " + builtIn.joined(separator: ", ")
    }

    /// `2 users (alice, bob)`; names are left out past five.
    static func count(_ count: Int, _ noun: String, _ names: [String]) -> String {
        let plural = count == 1 ? noun : noun == "timeline entry" ? "timeline entries" : noun + "s"
        guard !names.isEmpty, names.count <= 5 else { return "\(count) \(plural)" }
        return "\(count) \(plural) (\(names.joined(separator: ", ")))"
    }

    /// `clients com.example.app, com.example.web`.
    static func list(_ noun: String, _ names: [String]) -> String {
        (names.count == 1 ? noun : noun + "s") + " " + names.joined(separator: ", ")
    }
}
