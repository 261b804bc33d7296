/// A partial edit of a user; nil fields stay as they are.
package struct UserChange: Sendable, Equatable {
    /// `authorized`, `revoked` (ends every authorization), `notFound` (likewise) or `transferred`.
    package var credentialState: CredentialState?
    /// Relay forwarding on or off (drives `email-enabled` / `email-disabled`).
    package var emailForwardingEnabled: Bool?
    package var realUserStatus: RealUserStatus?
    package var email: String?
    package var emailVerified: Bool?
    package var privateEmail: Bool?
    package var relayEmail: String?
    package var firstName: String?
    package var lastName: String?

    package init(
        credentialState: CredentialState? = nil, emailForwardingEnabled: Bool? = nil,
        realUserStatus: RealUserStatus? = nil, email: String? = nil, emailVerified: Bool? = nil,
        privateEmail: Bool? = nil, relayEmail: String? = nil, firstName: String? = nil, lastName: String? = nil
    ) {
        self.credentialState = credentialState
        self.emailForwardingEnabled = emailForwardingEnabled
        self.realUserStatus = realUserStatus
        self.email = email
        self.emailVerified = emailVerified
        self.privateEmail = privateEmail
        self.relayEmail = relayEmail
        self.firstName = firstName
        self.lastName = lastName
    }

    /// Applies the change to a copy of `user`.
    package func applied(to user: UserProfile) -> UserProfile {
        var user = user
        if let credentialState { user.credentialState = credentialState }
        if let emailForwardingEnabled { user.emailForwardingEnabled = emailForwardingEnabled }
        if let realUserStatus { user.realUserStatus = realUserStatus }
        if let email { user.email = email }
        if let emailVerified { user.emailVerified = emailVerified }
        if let privateEmail { user.privateEmail = privateEmail }
        if let relayEmail { user.relayEmail = relayEmail }
        if let firstName { user.name.firstName = firstName }
        if let lastName { user.name.lastName = lastName }
        return user
    }
}

/// A user change that Apple announces by server-to-server notification (docs/fidelity.md#server-to-server-notifications).
package struct UserEvent: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case consentRevoked
        case emailDisabled
        case emailEnabled
        case accountDeleted
    }

    package var kind: Kind
    /// The user as they were when the event happened (a deleted user is no longer in the scenario).
    package var user: UserProfile
    /// The app groups concerned (every group of the user's teams for deletion and forwarding).
    package var appGroupIDs: [String]
    /// Mock-clock time of the change, in milliseconds.
    package var timeMilliseconds: Int64

    package init(kind: Kind, user: UserProfile, appGroupIDs: [String], timeMilliseconds: Int64) {
        self.kind = kind
        self.user = user
        self.appGroupIDs = appGroupIDs
        self.timeMilliseconds = timeMilliseconds
    }
}

extension UserEvent.Kind {
    /// Parses a type name as the control API accepts it (both account-deletion spellings).
    package init?(typeName: String) {
        switch typeName {
        case "email-disabled": self = .emailDisabled
        case "email-enabled": self = .emailEnabled
        case "consent-revoked": self = .consentRevoked
        case "account-delete", "account-deleted": self = .accountDeleted
        default: return nil
        }
    }

    /// The wire name, with the scenario's choice for account deletion.
    package func typeName(_ settings: NotificationSettings) -> String {
        switch self {
        case .emailDisabled: "email-disabled"
        case .emailEnabled: "email-enabled"
        case .consentRevoked: "consent-revoked"
        case .accountDeleted: settings.accountDeletionType
        }
    }
}
