/// `ASAuthorizationController.performRequests(options:)` with the requests of
/// `performExistingAccountSetupFlows`: an Apple ID request (`ASAuthorizationAppleIDRequest`) and a
/// password request (`ASAuthorizationPasswordRequest`), answered as the device would (docs/fidelity.md).
import ScenarioModel

package enum CredentialRequestKind: String, Sendable, Equatable, CaseIterable {
    case appleID = "apple_id"
    case password
}

/// What the device hands the app.
package enum ExistingAccountAnswer: Sendable, Equatable {
    case appleID(NativeCredential)
    /// `ASPasswordCredential`: the saved `user` and `password`, for `domain`.
    case password(SavedPassword)
}

/// The device offered nothing: `ASAuthorizationError` `canceled` (1001) with
/// `preferImmediatelyAvailableCredentials`, else `unknown` (1000).
package struct NoCredentials: Error, Sendable, Equatable {
    /// `ASAuthorizationError.Code` raw value.
    package var code: Int
    /// `canceled` or `unknown`.
    package var name: String
    /// Why, in words: no earlier sign-in, and why each saved password was not offered.
    package var reason: String
}

/// Why no saved password qualifies, in words.
struct PasswordRefusal: Error {
    var reason: String
}

extension AppleIdentityProvider {
    /// Answers an existing-account request list for `user` in the app `clientID`:
    /// 1. `apple_id` and the user already uses Sign in with Apple with the app: an Apple ID credential
    ///    (no name or email: not a first authorization);
    /// 2. else `password` and a password saved for a `webcredentials:` domain of the app whose
    ///    association file lists the app: that password;
    /// 3. else `apple_id` without `preferImmediatelyAvailable`: the sign-in sheet, a first authorization;
    /// 4. else no credential (`NoCredentials`).
    /// - Throws: `ProviderChangeError` for an unknown user or client, or a Services ID.
    package func existingAccountCredential(
        clientID: String, user value: String, requests: [CredentialRequestKind], preferImmediatelyAvailable: Bool,
        scopes: [Scope] = [.name, .email], nonce: String? = nil, state: String? = nil
    ) throws(ProviderChangeError) -> Result<ExistingAccountAnswer, NoCredentials> {
        let scenario = self.scenario
        let client = try scenario.nativeClient(id: clientID)
        guard let user = scenario.user(matching: value)?.user else {
            throw .unknownUser(value, among: scenario.users.map(\.id))
        }
        var reasons: [String] = []
        if requests.contains(.appleID) {
            let group = scenario.consentGroupID(forClient: clientID)
            let consent = try ProviderChangeError.storing { () throws(StoreUnavailable) in
                try store.consentStatus(userID: user.id, consentGroupID: group)
            }
            if user.credentialState == .authorized, consent == .active {
                return .success(
                    .appleID(
                        try nativeCredential(
                            clientID: clientID, user: user.id, scopes: scopes, nonce: nonce, state: state)))
            }
            reasons.append("\(user.id) has not signed in with Apple to \(clientID) (or revoked it)")
        }
        if requests.contains(.password) {
            switch savedPassword(of: user, for: client, in: scenario) {
            case .success(let saved): return .success(.password(saved))
            case .failure(let why): reasons.append(why.reason)
            }
        }
        if requests.contains(.appleID) && !preferImmediatelyAvailable {
            return .success(
                .appleID(
                    try nativeCredential(clientID: clientID, user: user.id, scopes: scopes, nonce: nonce, state: state))
            )
        }
        let name = preferImmediatelyAvailable ? "canceled" : "unknown"
        return .failure(
            NoCredentials(
                code: preferImmediatelyAvailable ? 1001 : 1000, name: name,
                reason: "no credential to offer: " + reasons.joined(separator: "; ")))
    }

    /// The first password `user` saved for a domain `client` may use, or why none qualifies.
    func savedPassword(of user: UserProfile, for client: Client, in scenario: Scenario) -> Result<
        SavedPassword, PasswordRefusal
    > {
        if user.keychain.isEmpty { return .failure(PasswordRefusal(reason: "\(user.id) has no saved passwords")) }
        var refusals: [String] = []
        for saved in user.keychain {
            guard let refusal = scenario.passwordRefusal(domain: saved.domain, for: client) else {
                return .success(saved)
            }
            refusals.append("the password for \(saved.domain): \(refusal)")
        }
        return .failure(PasswordRefusal(reason: refusals.joined(separator: "; ")))
    }

    /// An account-upgrade extension converting the user's password account on `client` to Sign in with
    /// Apple (`ASAccountAuthenticationModificationReplacePasswordWithSignInWithAppleRequest`): an Apple
    /// ID credential without a full name, flagged as an upgrade; the saved password is then deleted
    /// from the keychain, as the system does after `completeUpgradeToSignInWithApple(userInfo:)`.
    /// - Throws: `.conflict` when the user has no password the app may use to upgrade from.
    package func upgradeToSignInWithApple(
        clientID: String, user value: String, nonce: String? = nil, state: String? = nil
    ) throws(ProviderChangeError) -> NativeCredential {
        let scenario = self.scenario
        let client = try scenario.nativeClient(id: clientID)
        guard let user = scenario.user(matching: value)?.user else {
            throw .unknownUser(value, among: scenario.users.map(\.id))
        }
        let saved: SavedPassword
        switch savedPassword(of: user, for: client, in: scenario) {
        case .success(let found): saved = found
        case .failure(let why):
            throw ProviderChangeError(.conflict, field: "user", "no password account to upgrade: \(why.reason)")
        }
        var credential = try nativeCredential(
            clientID: clientID, user: user.id, scopes: [.email], nonce: nonce, state: state)
        credential.fullName = nil
        credential.isAccountUpgrade = true
        _ = try? changeUsers { (scenario, users) throws(ProviderChangeError) in
            if let index = users.positions[user.id] {
                scenario.users[index].keychain.removeAll { $0 == saved }
            }
        }
        return credential
    }
}
