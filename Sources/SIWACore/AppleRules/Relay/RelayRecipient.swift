/// Who a relay address belongs to: the user, the team whose apps were given it, and where the
/// relay forwards.
import ScenarioModel

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
}
