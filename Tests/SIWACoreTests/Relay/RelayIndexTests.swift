import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

/// The relay-address index of provider snapshots (issue #15 "Performance": `RCPT TO` resolved by a scan
/// of every user, copying each, dominated the relay's CPU). Lookups are checked against that scan, kept
/// here as the oracle, after every kind of change; the index follows a change by a path, not a rebuild.
@Suite struct RelayIndexTests {
    static func user(_ n: Int) -> UserProfile {
        UserProfile(
            id: "r\(n)", sub: "000000.r\(n).0000", email: "r\(n)@example.com", privateEmail: true,
            relayEmail: "relay\(n)x@privaterelay.appleid.com")
    }

    static func scenario(users: Int) -> Scenario {
        var scenario = Scenario.builtIn
        scenario.teams.append(Team(id: "ZZZZZ99999"))
        scenario.users = UserList(Array(scenario.users) + (0..<users).map(Self.user))
        return scenario
    }

    /// The relay's former lookup: every user with a relay address, every team, first match.
    static func scan(_ address: String, in scenario: Scenario) -> (userID: String, teamID: String, relay: String)? {
        let wanted = address.lowercased()
        for user in scenario.users where user.relayEmail != nil {
            for team in scenario.teams {
                if let relay = scenario.relayEmail(of: user, inTeam: team.id), relay.lowercased() == wanted {
                    return (user.id, team.id, relay)
                }
            }
        }
        return nil
    }

    /// Every address of `users` (all teams, upper-cased too) and one unknown resolve as the scan does.
    static func expectAgreesWithScan(_ provider: AppleIdentityProvider, ids: [String], _ step: String) {
        let snapshot = provider.snapshot
        let scenario = snapshot.scenario
        var addresses = ["nobody12ab@privaterelay.appleid.com"]
        for id in ids {
            guard let user = scenario.users.first(where: { $0.id == id }) else { continue }
            for team in scenario.teams {
                if let relay = scenario.relayEmail(of: user, inTeam: team.id) {
                    addresses += [relay, relay.uppercased()]
                }
            }
        }
        for address in addresses {
            let found = snapshot.relayRecipient(forAddress: address)
            let expected = scan(address, in: scenario)
            #expect(found?.user.id == expected?.userID, "\(step): \(address)")
            #expect(found?.teamID == expected?.teamID && found?.relayAddress == expected?.relay, "\(step): \(address)")
            if let found { #expect(found.user == scenario.users.first { $0.id == found.user.id }, "\(step)") }
        }
        let holders = scenario.users.filter { $0.relayEmail != nil }.count * scenario.teams.count
        #expect(snapshot.indexedRelayAddressCount == holders, "\(step): one entry per relay user and team")
    }

    @Test func lookupsFollowAddEditDeleteAndReplacement() throws {
        let provider = try TestFixtures.provider(scenario: Self.scenario(users: 3_000), clock: TestFixtures.clock())
        #expect(provider.scenario.teams.count >= 2, "derived per-team addresses are exercised")
        var ids = ["r0", "r1", "r1500", "r2999"] + provider.scenario.users.prefix(3).map(\.id)
        Self.expectAgreesWithScan(provider, ids: ids, "loaded")

        let changes: [(String, () throws -> Void)] = [
            ("add", { _ = try provider.addUser(Self.user(5_000)) }),
            (
                "edit relay",
                { _ = try provider.updateUser("r1500", UserChange(relayEmail: "moved1500@privaterelay.appleid.com")) }
            ),
            ("edit forwarding", { _ = try provider.updateUser("r1", UserChange(emailForwardingEnabled: false)) }),
            ("delete", { _ = try provider.deleteAccount("r0") }),
        ]
        ids.append("r5000")
        for (name, change) in changes {
            let before = provider.snapshot
            try change()
            // A path per table (list, ids, subs, relays), not a new index (thousands of nodes).
            #expect(provider.snapshot.userTablesNotShared(with: before) <= 24, "\(name) rebuilt a table")
            Self.expectAgreesWithScan(provider, ids: ids, name)
        }
        let snapshot = provider.snapshot
        #expect(snapshot.relayRecipient(forAddress: "relay1500x@privaterelay.appleid.com") == nil)
        #expect(snapshot.relayRecipient(forAddress: "MOVED1500@privaterelay.appleid.com")?.user.id == "r1500")
        #expect(
            snapshot.relayRecipient(forAddress: "relay1x@privaterelay.appleid.com")?.user.emailForwardingEnabled
                == false)
        #expect(snapshot.relayRecipient(forAddress: "relay0x@privaterelay.appleid.com") == nil)
        #expect(snapshot.relayRecipient(forAddress: "relay5000x@privaterelay.appleid.com")?.user.id == "r5000")

        var replacement = Self.scenario(users: 0)
        replacement.users.append(
            UserProfile(
                id: "solo", sub: "000000.solo.0000", email: "solo@example.com", privateEmail: true,
                relayEmail: "relay2x@privaterelay.appleid.com"))
        try provider.replaceScenario(replacement)
        #expect(provider.snapshot.relayRecipient(forAddress: "relay2x@privaterelay.appleid.com")?.user.id == "solo")
        #expect(provider.snapshot.relayRecipient(forAddress: "relay5000x@privaterelay.appleid.com") == nil)
        Self.expectAgreesWithScan(provider, ids: ["solo", "r2"], "replaced")
    }

    /// Two users given one address: the first in list order receives, as with the scan; deleting it
    /// hands the address to the other.
    @Test func aSharedAddressGoesToTheFirstUser() throws {
        var scenario = Self.scenario(users: 3)
        scenario.users[scenario.users.index(scenario.users.startIndex, offsetBy: scenario.users.count - 1)]
            .relayEmail = "relay0x@privaterelay.appleid.com"
        let provider = try TestFixtures.provider(scenario: scenario, clock: TestFixtures.clock())
        #expect(provider.snapshot.relayRecipient(forAddress: "relay0x@privaterelay.appleid.com")?.user.id == "r0")
        try provider.deleteAccount("r0")
        #expect(provider.snapshot.relayRecipient(forAddress: "relay0x@privaterelay.appleid.com")?.user.id == "r2")
        Self.expectAgreesWithScan(provider, ids: ["r1", "r2"], "shared")
    }
}
