import Foundation
import SIWACore
import ScenarioModel

/// A scenario user as the mock holds it.
public struct MockUser: Sendable, Equatable {
    /// The scenario id (`alice`).
    public var id: String
    /// The user's `sub` for the scenario's first team.
    public var sub: String
    /// The real address.
    public var email: String
    /// The private relay address, for users who hide their email.
    public var relayEmail: String?
    /// Whether mail to the relay address is forwarded.
    public var emailForwardingEnabled: Bool
    public var fullName: PersonNameComponents

    init(_ user: UserProfile) {
        id = user.id
        sub = user.sub
        email = user.email
        relayEmail = user.privateEmail ? user.relayEmail : nil
        emailForwardingEnabled = user.emailForwardingEnabled
        var name = PersonNameComponents()
        name.givenName = user.name.firstName
        name.familyName = user.name.lastName
        fullName = name
    }
}

/// What users do in Settings and on appleid.apple.com (`PATCH`/`DELETE /mock/users/{id}`). Each change
/// sends the server-to-server notification Apple would, when the app group has an endpoint.
extension AppleIDMock {
    /// Every scenario user.
    public var users: [MockUser] { provider.scenario.users.map(MockUser.init) }

    /// The user named by id, email or `sub`.
    /// - Throws: ``AppleIDMockError`` `.notFound`, naming the user probably meant.
    public func user(_ name: String) throws(AppleIDMockError) -> MockUser {
        guard let user = provider.user(named: name) else {
            throw AppleIDMockError(.unknownUser(name, among: provider.scenario.users.map(\.id)))
        }
        return MockUser(user)
    }

    /// The user stops using Sign in with Apple with your apps (Settings): consent, tokens and
    /// outstanding codes end, credential state becomes ``CredentialState/revoked`` and
    /// `consent-revoked` is sent.
    public func revoke(user: String) throws(AppleIDMockError) {
        try change(user, UserChange(credentialState: .revoked))
    }

    /// The user deletes their Apple Account: every authorization ends and `account-deleted` is sent.
    public func deleteAccount(user: String) throws(AppleIDMockError) {
        let provider = self.provider
        _ = try mapped { () throws(ProviderChangeError) in try provider.deleteAccount(user) }
    }

    /// Marks the user as transferred (credential state ``CredentialState/transferred``), as after an
    /// app transfer to another team.
    public func markTransferred(user: String) throws(AppleIDMockError) {
        try change(user, UserChange(credentialState: .transferred))
    }

    /// Turns mail forwarding to the user's relay address off or on (`email-disabled`/`email-enabled`).
    public func setEmailForwarding(user: String, enabled: Bool) throws(AppleIDMockError) {
        try change(user, UserChange(emailForwardingEnabled: enabled))
    }

    private func change(_ user: String, _ change: UserChange) throws(AppleIDMockError) {
        let provider = self.provider
        _ = try mapped { () throws(ProviderChangeError) in try provider.updateUser(user, change) }
    }
}
