/// Who a relay address belongs to: the user, the team whose apps were given it, and where the
/// relay forwards.
package struct RelayRecipient: Sendable, Equatable {
    package var relayAddress: String
    package var teamID: String
    package var user: UserProfile

    /// The user's real address: where the relay delivers.
    package var realAddress: String { user.email }
}

extension Scenario {
    /// The domains the relay receives mail for
    /// (https://developer.apple.com/documentation/signinwithapple/communicating-using-the-private-email-relay-service).
    package static let relayDomains = ["privaterelay.appleid.com"]

    /// The user and team behind a relay address (case-insensitive), across every team's view of
    /// every private-email user.
    package func relayRecipient(forAddress address: String) -> RelayRecipient? {
        let wanted = address.lowercased()
        let length = wanted.utf8.count
        let teamIDs = teams.isEmpty ? [""] : teams.map(\.id)
        for user in users where user.relayEmail != nil {
            for teamID in teamIDs {
                // Lengths first: lowercasing every user's address per lookup is most of the cost.
                if let relay = relayEmail(of: user, inTeam: teamID), relay.utf8.count == length,
                    relay.lowercased() == wanted
                {
                    return RelayRecipient(relayAddress: relay, teamID: teamID, user: user)
                }
            }
        }
        return nil
    }
}
