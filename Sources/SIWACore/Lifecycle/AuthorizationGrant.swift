/// What one user's authorization of one client carries through codes and tokens.
public struct AuthorizationGrant: Sendable, Equatable {
    /// The client the code (and later the tokens) were issued to; the id_token `aud`.
    public var clientID: String
    /// The redirect_uri of the authorize request; nil for native codes (which must be redeemed without one).
    public var redirectURI: String?
    /// Scenario user id.
    public var userID: String
    /// The app group whose consent this authorization belongs to.
    public var consentGroupID: String
    /// Scopes granted at the user's first consent for the group.
    public var scopes: [Scope]
    public var nonce: String?
    /// When the user authenticated (`auth_time`).
    public var authTime: Int64
    /// Whether this was the first authorization for the group (the `user` field, `real_user_status`).
    public var isFirstAuthorization: Bool
    /// Set only for first authorizations from a native OS; never for the web flow.
    public var realUserStatus: RealUserStatus?
    /// "Share My Email" or "Hide My Email" as chosen on the consent sheet at the first consent (kept with
    /// the consent); nil when no sheet asked, so the scenario's `private_email` decides.
    public var emailChoice: EmailChoice?

    public init(
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
    public var includesEmail: Bool { scopes.contains(.email) }
}
