import SIWACore
import ScenarioModel

extension Scenario {
    /// The recipient team of `transferFixture`.
    package static let recipientTeamID = "ZYXWV98765"
    /// The native app that moved from `ABCDE12345` to `ZYXWV98765`.
    package static let movedAppID = "com.moved.app"

    /// The built-in scenario plus a second team that received `com.moved.app` from `ABCDE12345`,
    /// accepted at `acceptedAt` (user migration tests,
    /// https://developer.apple.com/documentation/signinwithapple/transferring-your-apps-and-users-to-another-team).
    /// Both teams register the
    /// test client-secret key `KEY1234567`.
    package static func transferFixture(acceptedAt: Int64) -> Scenario {
        var scenario = Scenario.builtIn
        scenario.name = "transfer"
        scenario.teams.append(
            Team(
                id: recipientTeamID,
                clientSecretKeys: [
                    ClientSecretKey(kid: "KEY1234567", publicKeyPEM: BuiltInKeys.clientSecretPublicKeyKEY1234567)
                ]))
        scenario.clients.append(Client(id: movedAppID, teamID: recipientTeamID, kind: .native))
        scenario.appGroups.append(AppGroup(id: movedAppID, primaryAppID: movedAppID, clientIDs: [movedAppID]))
        scenario.transfers = [
            TeamTransfer(
                fromTeamID: "ABCDE12345", toTeamID: recipientTeamID, acceptedAt: acceptedAt, clientIDs: [movedAppID])
        ]
        return scenario
    }
}
