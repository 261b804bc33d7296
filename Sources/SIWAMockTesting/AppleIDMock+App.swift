import Foundation
import JOSE
import SIWACore
import ScenarioModel

/// The app's side: what AuthenticationServices gives the app on a device.
extension AppleIDMock {
    /// Signs `user` in to the native app `client`, as `ASAuthorizationController.performRequests()`
    /// with an `ASAuthorizationAppleIDRequest` would (`POST /mock/credentials`).
    ///
    /// - Parameters:
    ///   - user: a scenario user id, email or `sub` (in any team: a transferred app asked with the old
    ///     team's `sub` gets the new team's, as silent re-authorization does).
    ///   - client: the app's bundle ID (an App ID of the scenario, not a Services ID).
    ///   - scopes: `requestedScopes`.
    ///   - nonce: copied into the identity token's `nonce` claim.
    ///   - state: echoed in the credential.
    /// - Throws: ``AppleIDMockError`` `.notFound` for an unknown user or client, `.invalid` for a
    ///   Services ID; both name the value probably meant. `.authorization` when the test scripted the
    ///   sheet's answer (``failNextAuthorization(with:times:client:)``).
    public func authorize(
        user: String, client: String, scopes: [AuthorizationScope] = [.fullName, .email], nonce: String? = nil,
        state: String? = nil
    ) throws(AppleIDMockError) -> AppleIDCredential {
        if let scripted = scriptedFailure(user: user, client: client) { throw AppleIDMockError(scripted) }
        return try issueCredential(user: user, client: client, scopes: scopes, nonce: nonce, state: state)
    }

    /// The credential of a sheet request that was not scripted to fail.
    func issueCredential(
        user: String, client: String, scopes: [AuthorizationScope], nonce: String?, state: String?
    ) throws(AppleIDMockError) -> AppleIDCredential {
        let provider = self.provider
        // A `tamper:` fault rule (``addFault(_:)``) breaks the identity token as POST /mock/credentials does.
        let tampering = host.mock.control.tamperingRule(forCredentialOf: client, user: user)
        let native = try mapped { () throws(ProviderChangeError) in
            try provider.nativeCredential(
                clientID: client, user: user, scopes: scopes.map(\.scope), nonce: nonce, state: state,
                tamper: tampering?.tamper)
        }
        return AppleIDCredential(native)
    }

    /// What `ASAuthorizationAppleIDProvider().getCredentialState(forUserID:)` answers in the app
    /// `client` (`GET /mock/credential-state`): ``CredentialState/notFound`` for any user identifier the
    /// mock does not know (deleted, transferred away, never existed), as Apple answers; ``logLines`` says
    /// why ("deleted at …", "did you mean …?"), and so does the journal when asked over HTTP.
    /// - Throws: ``AppleIDMockError`` `.notFound` for an unknown client.
    public func credentialState(forUserID user: String, client: String) throws(AppleIDMockError) -> CredentialState {
        let provider = self.provider
        let answer = try mapped { () throws(ProviderChangeError) in
            try provider.credentialStateAnswer(user: user, clientID: client)
        }
        // The reason stays out of the answer, as Apple's does.
        if let reason = answer.reason { log.append("credential state in \(client): notFound: \(reason)") }
        return CredentialState(answer.state)
    }

    /// An ES256 client secret for `client`, signed with the built-in scenario's published test key
    /// (`scenarios/keys/AuthKey_KEY1234567.p8`), issued now by the mock's clock.
    ///
    /// - Parameters:
    ///   - team: the `iss`; nil: the scenario's first team.
    ///   - keyID: the `kid` the team registered for the test key.
    ///   - lifetime: seconds until `exp` (Apple allows at most 15777000).
    /// - Throws: ``AppleIDMockError`` `.invalid` with the reason `/auth/token` would refuse the secret
    ///   for (e.g. the scenario's team has no key `keyID`, or a different public key under it).
    public func clientSecret(
        team: String? = nil, client: String, keyID: String = "KEY1234567", lifetime: Int64 = 3600
    ) throws(AppleIDMockError) -> String {
        guard let team = team ?? teamID else {
            throw AppleIDMockError(.invalid, field: "team", "the scenario has no team")
        }
        let secret: String
        do {
            let key = try P256PrivateKey(pem: Scenario.BuiltInKeys.clientSecretPrivateKeyKEY1234567)
            secret = try ClientSecretSigner.sign(
                teamID: team, clientID: client, keyID: keyID, key: key, issuedAt: provider.clock.nowSeconds,
                lifetime: lifetime)
        } catch {
            throw AppleIDMockError(.server, "client secret signing failed: \(error.message)")
        }
        do throws(ClientSecretFailure) {
            _ = try provider.clientSecrets.validate(secret, clientID: client)
        } catch {
            throw AppleIDMockError(.invalid, field: "client_secret", "/auth/token would refuse it: \(error)")
        }
        return secret
    }
}
