import SIWATestSupport
import ScenarioModel
import Testing

/// Sections a scenario file leaves out come from the built-in scenario (issue #12: a file with only
/// `users:` used to load with no team and no client, so every sign-in got `invalid_client` while
/// `check` said "ok"), and `check`'s summary says which.
@Suite struct ScenarioDefaultsTests {
    let loader = ScenarioLoader(files: { ScenarioFiles.read($0) }, generateMissingKeys: false)

    func load(_ text: String) throws -> Scenario { try loader.load(text, file: "test.yaml") }

    @Test func usersOnlyGetsTheBuiltInTeamClientsGroupAndKeys() throws {
        let scenario = try load("users:\n  - id: dave\n    email: dave@example.com\n")
        #expect(scenario.users.map(\.id) == ["dave"])
        #expect(scenario.teams == Scenario.builtIn.teams)
        #expect(scenario.clients == Scenario.builtIn.clients)
        #expect(scenario.appGroups == Scenario.builtIn.appGroups)
        #expect(scenario.signingKeys == Scenario.builtIn.signingKeys)
        #expect(scenario.inheritedSections == ["teams", "clients", "app_groups", "signing_keys"])
        #expect(scenario.client(id: "com.example.web")?.redirectURIs.isEmpty == false)
    }

    @Test func faultsOnlyGetsTheBuiltInUsersAndFaultsMayNameThem() throws {
        let scenario = try load("faults:\n  - match: POST /auth/token\n    user: alice\n    status: 503\n")
        #expect(scenario.users == Scenario.builtIn.users)
        #expect(scenario.faults.first?.matcher.userID == "alice")
        #expect(scenario.inheritedSections == ["teams", "clients", "app_groups", "users", "signing_keys"])
    }

    /// `app_groups: [{id: com.example.app, notification_url: …}]` keeps the built-in group's members.
    @Test func builtInAppGroupNeedsOnlyItsIDAndEndpoint() throws {
        let scenario = try load(
            "app_groups:\n  - id: com.example.app\n    notification_url: http://127.0.0.1:9000/n\n")
        var expected = Scenario.builtIn.appGroups
        expected[0].notificationURL = "http://127.0.0.1:9000/n"
        #expect(scenario.appGroups == expected)
        #expect(throws: (any Error).self) {
            try load("app_groups:\n  - id: com.other.app\n    notification_url: http://127.0.0.1:9000/n\n")
        }
        #expect(throws: (any Error).self, "a file with its own clients lists the group's") {
            try load(
                "clients:\n  - id: com.other.web\n    redirect_uris: [https://o.example/cb]\n"
                    + "app_groups:\n  - id: com.example.app\n    notification_url: http://127.0.0.1:9000/n\n")
        }
    }

    @Test func namingTeamsOrClientsTakesNothingFromTheBuiltInTeam() throws {
        let scenario = try load(
            "teams:\n  - id: ZYXWV98765\nclients:\n  - id: com.other.web\n    redirect_uris: [https://o.example/cb]\n"
                + "users:\n  - id: zed\n")
        #expect(scenario.teams.map(\.id) == ["ZYXWV98765"])
        #expect(scenario.clients.map(\.id) == ["com.other.web"])
        #expect(scenario.appGroups.isEmpty)
        #expect(scenario.inheritedSections == ["signing_keys"])
        #expect(Scenario.builtIn.inheritedSections.isEmpty, "default.yaml defines every section")
    }

    @Test func summarySaysWhatIsDefinedAndWhatIsBuiltIn() throws {
        let usersOnly = try load(
            "users:\n  - id: dave\n  - id: erin\nfaults:\n  - id: token-503\n    match: POST /auth/token\n    status: 503\n"
        )
        #expect(
            usersOnly.summary
                == "defines 2 users (dave, erin), 1 fault (token-503); built-in: team ABCDE12345, "
                + "clients com.example.app, com.example.web, signing keys Aj3F8kLq2X, Pb7Yt1ZcQ9, Tq8Nv3WcLm")
        #expect(
            Scenario.builtIn.summary
                == "defines 1 team (ABCDE12345), 2 clients (com.example.app, com.example.web), "
                + "3 users (alice, bob, carol), 3 signing keys (Aj3F8kLq2X, Pb7Yt1ZcQ9, Tq8Nv3WcLm)")
        #expect(try load("name: empty\n").summary.hasPrefix("defines nothing of its own; built-in: team ABCDE12345"))
    }
}
