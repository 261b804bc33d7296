/// One Apple Account as the scenario describes it.
package struct UserProfile: Sendable, Equatable {
    /// Scenario-local handle (`alice`), used by `login_hint` and the control API.
    package var id: String
    /// Team-scoped user identifier (`NNNNNN.<32 hex>.NNNN`).
    package var sub: String
    /// The real address.
    package var email: String
    package var emailVerified: Bool
    /// Whether the user chose "Hide My Email": tokens then carry `relayEmail`.
    package var privateEmail: Bool
    package var relayEmail: String?
    /// False: id_tokens leave out `is_private_email` even for a relay address, as Apple did for one
    /// relay user in November 2025 (https://developer.apple.com/forums/thread/808653; docs/fidelity.md).
    package var sendsPrivateEmailClaim: Bool = true
    package var name: PersonName
    package var realUserStatus: RealUserStatus
    package var credentialState: CredentialState
    /// Set for users moved by an app transfer (docs/fidelity.md).
    package var transferSub: String?
    /// Whether the private relay forwards mail (turning it off sends `email-disabled`).
    package var emailForwardingEnabled: Bool
    /// This user's `sub` in teams other than the first one (derived deterministically when absent).
    package var teamSubs: [String: String]
    /// `real_user_status: {value: …, always: true}`: the claim is sent on every id_token, not only on
    /// native first authorizations (a test override; Apple never does this).
    package var realUserStatusAlways: Bool = false
    /// When set, the user starts as returning: consent already given with these scopes in every app
    /// group (`first_authorization_done` / `consented_scopes`), so `user` is not sent again.
    package var consentedScopes: [Scope]?
    /// Passwords saved in iCloud Keychain for websites (`keychain:`), offered by existing-account flows.
    package var keychain: [SavedPassword] = []

    package init(
        id: String, sub: String, email: String, emailVerified: Bool = true, privateEmail: Bool = false,
        relayEmail: String? = nil, name: PersonName = PersonName(), realUserStatus: RealUserStatus = .likelyReal,
        credentialState: CredentialState = .authorized, transferSub: String? = nil,
        emailForwardingEnabled: Bool = true, teamSubs: [String: String] = [:]
    ) {
        self.emailForwardingEnabled = emailForwardingEnabled
        self.teamSubs = teamSubs
        self.id = id
        self.sub = sub
        self.email = email
        self.emailVerified = emailVerified
        self.privateEmail = privateEmail
        self.relayEmail = relayEmail
        self.name = name
        self.realUserStatus = realUserStatus
        self.credentialState = credentialState
        self.transferSub = transferSub
    }

    /// The address apps see: the relay address for private-email users, otherwise the real one.
    package var deliveredEmail: String {
        if privateEmail, let relayEmail { return relayEmail }
        return email
    }

    /// Whether `deliveredEmail` is a relay address (`is_private_email`).
    package var isDeliveredEmailPrivate: Bool { privateEmail && relayEmail != nil }
}

/// Given and family name, as sent once in the `user` form field.
package struct PersonName: Sendable, Equatable {
    package var firstName: String
    package var lastName: String

    package init(firstName: String = "", lastName: String = "") {
        self.firstName = firstName
        self.lastName = lastName
    }
}

/// `ASUserDetectionStatus` / the `real_user_status` claim.
package enum RealUserStatus: Int, Sendable, Equatable {
    case unsupported = 0
    case unknown = 1
    case likelyReal = 2
}

/// `ASAuthorizationAppleIDProvider.CredentialState` (raw values as in AuthenticationServices).
package enum CredentialState: Int, Sendable, Equatable {
    case revoked = 0
    case authorized = 1
    case notFound = 2
    case transferred = 3
}
