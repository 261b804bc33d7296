import SIWACore

/// A request of `ASAuthorizationController(authorizationRequests:)` in an existing-account flow.
public enum CredentialRequest: String, Sendable, Equatable, CaseIterable {
    /// `ASAuthorizationAppleIDProvider().createRequest()`.
    case appleID = "apple_id"
    /// `ASAuthorizationPasswordProvider().createRequest()`.
    case password

    var kind: CredentialRequestKind {
        switch self {
        case .appleID: .appleID
        case .password: .password
        }
    }
}

/// `ASPasswordCredential`: a password the user saved for a website associated with the app.
public struct PasswordCredential: Sendable, Equatable {
    public var user: String
    public var password: String
    /// The website it was saved for.
    public var domain: String

    public init(user: String, password: String, domain: String) {
        self.user = user
        self.password = password
        self.domain = domain
    }
}

/// What an existing-account flow hands the app.
public enum ExistingAccountCredential: Sendable, Equatable {
    case appleID(AppleIDCredential)
    case password(PasswordCredential)
}

extension AppleIDMock {
    /// `performExistingAccountSetupFlows`: what the device offers for `requests`
    /// (`POST /mock/credentials` with `requests`, docs/control-api.md):
    /// an Apple ID credential when `user` already signed in with Apple to `client`; else a password the
    /// user saved for one of the app's `webcredentials:` domains whose association file lists the app;
    /// else, without `preferImmediatelyAvailableCredentials`, the Apple ID sheet (a first authorization);
    /// else nothing.
    ///
    /// - Throws: ``AppleIDMockError`` `.noCredentials` (``AppleIDMockError/authorizationErrorCode``
    ///   1001 `canceled` with `preferImmediatelyAvailableCredentials`, else 1000 `unknown`) saying why
    ///   each credential was not offered; `.notFound`/`.invalid` for an unknown user or client;
    ///   `.authorization` when the test scripted the sheet's answer (``failNextAuthorization(with:times:client:)``).
    public func performExistingAccountSetupFlows(
        user: String, client: String, requests: [CredentialRequest] = [.appleID, .password],
        preferImmediatelyAvailableCredentials: Bool = true, scopes: [AuthorizationScope] = [.fullName, .email],
        nonce: String? = nil, state: String? = nil
    ) throws(AppleIDMockError) -> ExistingAccountCredential {
        guard !requests.isEmpty else {
            throw AppleIDMockError(.invalid, field: "requests", "must name apple_id, password or both")
        }
        if let scripted = scriptedFailure(user: user, client: client) { throw AppleIDMockError(scripted) }
        let answer = try existingAccountCredential(
            user: user, client: client, requests: requests,
            preferImmediatelyAvailableCredentials: preferImmediatelyAvailableCredentials, scopes: scopes, nonce: nonce,
            state: state)
        switch answer {
        case .success(let credential): return credential
        case .failure(let none):
            var error = AppleIDMockError(.noCredentials, field: "requests", none.message)
            error.authorizationErrorCode = none.code.rawValue
            throw error
        }
    }

    /// What the device offers for a non-empty `requests` that was not scripted to fail: a credential, or
    /// the `ASAuthorizationError` the controller reports when it offers none.
    func existingAccountCredential(
        user: String, client: String, requests: [CredentialRequest], preferImmediatelyAvailableCredentials: Bool,
        scopes: [AuthorizationScope], nonce: String?, state: String?
    ) throws(AppleIDMockError) -> Result<ExistingAccountCredential, AuthorizationError> {
        let provider = self.provider
        let answer = try mapped { () throws(ProviderChangeError) in
            try provider.existingAccountCredential(
                clientID: client, user: user, requests: requests.map(\.kind),
                preferImmediatelyAvailable: preferImmediatelyAvailableCredentials, scopes: scopes.map(\.scope),
                nonce: nonce, state: state)
        }
        switch answer {
        case .success(.appleID(let credential)): return .success(.appleID(AppleIDCredential(credential)))
        case .success(.password(let saved)):
            return .success(
                .password(PasswordCredential(user: saved.user, password: saved.password, domain: saved.domain)))
        case .failure(let none):
            return .failure(AuthorizationError(AuthorizationError.Code(rawValue: none.code) ?? .unknown, none.reason))
        }
    }

    /// An account-upgrade extension converting `user`'s password account in `client` to Sign in with
    /// Apple (`ASAccountAuthenticationModificationReplacePasswordWithSignInWithAppleRequest`, then
    /// `getSignInWithAppleUpgradeAuthorization(state:nonce:)`): an Apple ID credential without a full name,
    /// with ``AppleIDCredential/isAccountUpgrade`` set. The saved password it upgrades from is then
    /// deleted from the user's keychain, as the system does after the upgrade completes.
    ///
    /// - Throws: ``AppleIDMockError`` `.conflict` when the user has no password the app may use.
    public func upgradeToSignInWithApple(
        user: String, client: String, nonce: String? = nil, state: String? = nil
    ) throws(AppleIDMockError) -> AppleIDCredential {
        let provider = self.provider
        return AppleIDCredential(
            try mapped { () throws(ProviderChangeError) in
                try provider.upgradeToSignInWithApple(clientID: client, user: user, nonce: nonce, state: state)
            })
    }
}
