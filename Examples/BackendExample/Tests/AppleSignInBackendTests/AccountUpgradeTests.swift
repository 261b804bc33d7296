import AppleSignInBackend
import Foundation
import SIWAMockTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A password account upgraded to Sign in with Apple by the app's account-upgrade extension.
@Suite struct AccountUpgradeTests {
    static let scenario = ScenarioSource.text(
        """
        teams:
          - id: ABCDE12345
        clients:
          - id: com.example.app
            kind: native
            associated_domains: [webcredentials:example.com]
        users:
          - id: alice
            email: alice@example.com
            name: Alice Appleseed
            keychain:
              - {domain: example.com, user: alice@example.com, password: hunter2}
        domains:
          - domain: example.com
            apple_app_site_association: '{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}'
        """)

    @Test func thePasswordAccountIsLinkedToTheNewSubAndAppleSignInFindsIt() async throws {
        let apple = try await AppleIDMock.start(scenario: Self.scenario)
        defer { apple.shutdown() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let backend = SignInServiceTests.backend(for: apple, session: session)
        await backend.registerPasswordAccount(user: "alice@example.com", password: "hunter2")

        // At launch the app's existing-account flow offers the saved password; the backend accepts it.
        guard
            case .password(let saved) = try apple.performExistingAccountSetupFlows(
                user: "alice", client: "com.example.app")
        else {
            Issue.record("expected the saved password")
            return
        }
        #expect(try await backend.signIn(user: saved.user, password: saved.password).appleSubject == nil)

        // The extension upgrades: no name in the credential, the email only.
        let upgrade = try apple.upgradeToSignInWithApple(user: "alice", client: "com.example.app", nonce: "up")
        #expect(upgrade.isAccountUpgrade && upgrade.fullName == nil)
        let linked = try await backend.upgradeToSignInWithApple(
            user: saved.user, password: saved.password, identityToken: upgrade.identityTokenString,
            authorizationCode: upgrade.authorizationCodeString, nonce: "up")
        #expect(linked.appleSubject == upgrade.user && linked.passwordUser == "alice@example.com")
        await #expect(throws: SignInError.wrongPassword) {
            _ = try await backend.signIn(user: saved.user, password: saved.password)
        }

        // Next launch: the device offers the Apple ID credential, and it signs in to the same account.
        guard
            case .appleID(let credential) = try apple.performExistingAccountSetupFlows(
                user: "alice", client: "com.example.app")
        else {
            Issue.record("expected the Apple ID credential")
            return
        }
        let account = try await backend.signIn(
            identityToken: credential.identityTokenString, authorizationCode: credential.authorizationCodeString,
            nonce: nil)
        #expect(account == linked.with(refreshToken: account.refreshToken))
        #expect(apple.requests(path: "/auth/token").map(\.outcome) == ["ok", "ok"])
    }
}

extension SignInService.Account {
    func with(refreshToken: String?) -> Self {
        var copy = self
        copy.refreshToken = refreshToken
        return copy
    }
}
