/// What one user's authorization of one client carries through codes and tokens.
import ScenarioModel

package struct AuthorizationGrant: Sendable, Equatable {
    /// The client the code (and later the tokens) were issued to; the id_token `aud`.
    package var clientID: String
    /// The redirect_uri of the authorize request; nil for native codes (which must be redeemed without one).
    package var redirectURI: String?
    /// Scenario user id.
    package var userID: String
    /// The app group whose consent this authorization belongs to.
    package var consentGroupID: String
    /// Scopes granted at the user's first consent for the group.
    package var scopes: [Scope]
    package var nonce: String?
    /// When the user authenticated (`auth_time`).
    package var authTime: Int64
    /// Whether this was the first authorization for the group (the `user` field, `real_user_status`).
    package var isFirstAuthorization: Bool
    /// Set only for first authorizations from a native OS; never for the web flow.
    package var realUserStatus: RealUserStatus?
    /// "Share My Email" or "Hide My Email" as chosen on the consent sheet at the first consent (kept with
    /// the consent); nil when no sheet asked, so the scenario's `private_email` decides.
    package var emailChoice: EmailChoice?

    package init(
        clientID: String, redirectURI: String?, userID: String, consentGroupID: String, scopes: [Scope],
        nonce: String? = nil, authTime: Int64, isFirstAuthorization: Bool, realUserStatus: RealUserStatus? = nil,
        emailChoice: EmailChoice? = nil
    ) {
        self.emailChoice = emailChoice
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.userID = userID
        self.consentGroupID = consentGroupID
        self.scopes = scopes
        self.nonce = nonce
        self.authTime = authTime
        self.isFirstAuthorization = isFirstAuthorization
        self.realUserStatus = realUserStatus
    }

    /// Email goes into id_tokens only when the email scope was granted at first consent ([3p]).
    package var includesEmail: Bool { scopes.contains(.email) }
}
