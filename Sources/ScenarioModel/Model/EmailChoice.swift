/// The email choice of Apple's consent sheet on a first authorization with the `email` scope: the app gets
/// the real address, or the user's private relay address for the app's team ("Hide My Email",
/// https://support.apple.com/en-us/102609 and
/// https://developer.apple.com/documentation/signinwithapple/communicating-using-the-private-email-relay-service).
package enum EmailChoice: String, Sendable, Equatable, CaseIterable {
    /// "Share My Email": `email` is the real address, `is_private_email` false.
    case share
    /// "Hide My Email": `email` is the relay address, `is_private_email` true.
    case hide

    /// `user` with `privateEmail` set by the choice; hiding gives a user without a declared relay address
    /// the one the scenario loader derives for them (the same seed, team and id, so it is stable).
    package func applied(to user: UserProfile, in scenario: Scenario) -> UserProfile {
        var copy = user
        switch self {
        case .share:
            copy.privateEmail = false
        case .hide:
            copy.privateEmail = true
            copy.relayEmail = user.relayEmail ?? scenario.derivedRelayEmail(of: user)
        }
        return copy
    }
}
