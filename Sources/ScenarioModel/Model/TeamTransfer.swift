/// An app transfer from one team to another
/// (https://developer.apple.com/documentation/signinwithapple/transferring-your-apps-and-users-to-another-team).
///
/// The moved clients are listed with their *recipient* team in `Scenario.clients`; this value says
/// where they came from and when the recipient accepted, which opens the 60-day windows.
package struct TeamTransfer: Sendable, Equatable {
    /// The sending team.
    package var fromTeamID: String
    /// The recipient team.
    package var toTeamID: String
    /// When the recipient accepted the transfer (seconds since the epoch, on the mock clock).
    package var acceptedAt: Int64
    /// The client ids that moved (bundle IDs and the Services IDs that moved with them).
    package var clientIDs: [String]

    /// Apple's window for creating and exchanging transfer identifiers: 60 days after acceptance.
    package static let windowSeconds: Int64 = 60 * 86400

    package init(fromTeamID: String, toTeamID: String, acceptedAt: Int64, clientIDs: [String]) {
        self.fromTeamID = fromTeamID
        self.toTeamID = toTeamID
        self.acceptedAt = acceptedAt
        self.clientIDs = clientIDs
    }

    /// Whether `now` lies in the 60 days after acceptance (recipient exchange, `transfer_sub` claims).
    package func isWithinExchangeWindow(now: Int64) -> Bool {
        now >= acceptedAt && now < acceptedAt + Self.windowSeconds
    }

    /// Whether the sender may still create transfer identifiers: any time before acceptance and up to
    /// 60 days after it.
    package func allowsCreatingTransferSubs(now: Int64) -> Bool {
        now < acceptedAt + Self.windowSeconds
    }
}
