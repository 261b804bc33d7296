import Foundation
import SIWACore
import ScenarioModel

/// What an app sees on the device when the user's Sign in with Apple credential for it is revoked:
/// `ASAuthorizationAppleIDProvider.credentialRevokedNotification`
/// (https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider/credentialrevokednotification).
/// The framework's notification carries no details (the app then asks `getCredentialState(forUserID:)`);
/// the mock says whose credential, why and when.
public struct CredentialRevocation: Sendable, Equatable {
    /// Why the credential ended.
    public enum Reason: String, Sendable, Equatable {
        /// The user stopped using Sign in with Apple with the app (Settings): ``AppleIDMock/revoke(user:)``,
        /// `PATCH /mock/users/{id}` with `credential_state: revoked`, a timeline's `revoke_consent`.
        case consentRevoked = "consent-revoked"
        /// The user deleted their Apple Account: ``AppleIDMock/deleteAccount(user:)``, `DELETE /mock/users/{id}`.
        case accountDeleted = "account-deleted"
    }

    /// The user's identifier as the app knows it (its team's `sub`).
    public var user: String
    /// The app (bundle ID) whose credential ended.
    public var client: String
    public var reason: Reason
    /// When, by the mock's clock.
    public var date: Date
}

/// Turns the provider's user events into revocations for every app of the groups concerned.
final class RevocationFeed: Sendable {
    let fanout = StreamFanout<CredentialRevocation>(capacity: 500)

    /// Observes `provider` for as long as this feed lives (the provider keeps the observer; it holds
    /// neither the provider nor the feed strongly).
    init(provider: AppleIdentityProvider) {
        provider.observeUserEvents { [weak provider, weak fanout] event in
            guard let provider, let fanout, fanout.isObserved else { return }
            for revocation in Self.revocations(of: event, in: provider.scenario) { fanout.yield(revocation) }
        }
    }

    /// One revocation per app of the event's groups (the groups the user had authorized), whether or not a
    /// group has a notification endpoint.
    static func revocations(of event: UserEvent, in scenario: Scenario) -> [CredentialRevocation] {
        let reason: CredentialRevocation.Reason
        switch event.kind {
        case .consentRevoked: reason = .consentRevoked
        case .accountDeleted: reason = .accountDeleted
        case .emailDisabled, .emailEnabled: return []
        }
        let date = Date(timeIntervalSince1970: Double(event.timeMilliseconds) / 1000)
        return scenario.clients.filter { event.appGroupIDs.contains(scenario.consentGroupID(forClient: $0.id)) }.map {
            CredentialRevocation(
                user: scenario.sub(of: event.user, inTeam: $0.teamID), client: $0.id, reason: reason, date: date)
        }
    }
}

extension AppleIDMock {
    /// The device's `credentialRevokedNotification` for the app `client`: every revocation of a user's
    /// credential for it from now on, as it happens, until ``shutdown()``, whether or not its app group
    /// has a notification URL. The newest 500 unread are buffered.
    ///
    /// ```swift
    /// let revocations = try apple.credentialRevocations(client: "com.example.app")
    /// try apple.revoke(user: "alice")
    /// for await revocation in revocations { signOut(revocation.user); break }
    /// ```
    /// - Throws: ``AppleIDMockError`` `.notFound` for an unknown client, naming the one probably meant.
    public func credentialRevocations(client: String) throws(AppleIDMockError) -> AsyncStream<CredentialRevocation> {
        let scenario = provider.scenario
        guard scenario.client(id: client) != nil else {
            throw AppleIDMockError(.unknownClient(client, among: scenario.clients.map(\.id)))
        }
        return revocations.fanout.stream { $0.client == client }
    }
}
