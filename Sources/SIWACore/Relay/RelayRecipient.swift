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
        let wanted = Array(address.lowercased().utf8)
        let teamIDs = teams.isEmpty ? [""] : teams.map(\.id)
        for user in users where user.relayEmail != nil {
            for teamID in teamIDs {
                // Compared byte by byte, ASCII case folded: no lowercased copy per user and lookup
                // (bench/RESULTS.md: that allocation was a tenth of the relay's CPU per message).
                if let relay = relayEmail(of: user, inTeam: teamID), relay.utf8.count == wanted.count,
                    relay.utf8.elementsEqual(wanted, by: { Self.asciiLowercase($0) == $1 })
                {
                    return RelayRecipient(relayAddress: relay, teamID: teamID, user: user)
                }
            }
        }
        return nil
    }

    static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }
}
