/// Everything the fake identity provider knows before the first request: teams, their clients and
/// keys, app groups, users, the id_token signing keys and the behaviour switches.
///
/// Plain values with sensible defaults; the scenario file language maps onto these types, and
/// `Scenario.builtIn` is the one `siwa-mock` serves when no file is given (docs/CONTRACTS.md).
package struct Scenario: Sendable, Equatable {
    package var name: String
    /// When set, identifiers and tokens are drawn from a seeded generator (reproducible runs).
    package var seed: UInt64?
    package var settings: ScenarioSettings
    package var teams: [Team]
    package var clients: [Client]
    package var appGroups: [AppGroup]
    /// In order; a runtime change copies O(log n) of it (`UserList`).
    package var users: UserList
    package var signingKeys: SigningKeySet
    /// App transfers between teams (user migration,
    /// https://developer.apple.com/documentation/signinwithapple/transferring-your-apps-and-users-to-another-team).
    package var transfers: [TeamTransfer]
    /// Where the mock clock starts and whether it runs (`clock:` in a scenario file).
    package var clock = ClockSettings()
    /// Error-injection rules (`faults:`), evaluated in order on every Apple endpoint request.
    package var faults: [FaultRule] = []
    /// Websites and the association files they serve (`domains:`), for saved passwords.
    package var webDomains: [WebDomain] = []
    /// Scripted changes triggered by mock-clock time or request counts (`timeline:`).
    package var timeline: [TimelineEntry] = []
    /// Top-level sections the scenario file left out and took from `Scenario.builtIn` (`teams`, `clients`,
    /// `app_groups`, `users`, `signing_keys`); `siwa-mock check` names them in its summary.
    package var inheritedSections: [String] = []

    package init(
        name: String = "scenario", seed: UInt64? = nil, settings: ScenarioSettings = ScenarioSettings(),
        teams: [Team] = [], clients: [Client] = [], appGroups: [AppGroup] = [], users: [UserProfile] = [],
        signingKeys: SigningKeySet = SigningKeySet(), transfers: [TeamTransfer] = []
    ) {
        self.transfers = transfers
        self.name = name
        self.seed = seed
        self.settings = settings
        self.teams = teams
        self.clients = clients
        self.appGroups = appGroups
        self.users = UserList(users)
        self.signingKeys = signingKeys
    }
}

extension Scenario {
    /// The client with exactly this id (case-sensitive, as Apple matches).
    package func client(id: String) -> Client? { clients.first { $0.id == id } }

    package func team(id: String) -> Team? { teams.first { $0.id == id } }

    /// The user named by a login hint: scenario id, email (real or relay) or sub.
    package func user(matchingHint hint: String) -> UserProfile? {
        users.first { $0.id == hint } ?? users.first { $0.sub == hint }
            ?? users.first { $0.email == hint || ($0.relayEmail != nil && $0.relayEmail == hint) }
    }

    package func user(id: String) -> UserProfile? { users.first { $0.id == id } }

    /// The consent scope of a client: its app group's id, or the client's own id when ungrouped.
    /// Apps grouped under one primary App ID share consent
    /// (https://developer.apple.com/help/account/configure-app-capabilities/group-apps-for-sign-in-with-apple).
    package func consentGroupID(forClient clientID: String) -> String {
        if let group = appGroups.first(where: { $0.clientIDs.contains(clientID) }) { return group.id }
        if let explicit = client(id: clientID)?.appGroupID { return explicit }
        return clientID
    }
}
