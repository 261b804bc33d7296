import Foundation
import SIWAMockTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// performExistingAccountSetupFlows: Apple ID, saved password, or nothing, as scenario and association say.
@Suite struct ExistingAccountTests {
    static func scenario(apps: String = #"["ABCDE12345.com.example.app"]"#) -> ScenarioSource {
        .text(
            """
            teams:
              - id: ABCDE12345
            clients:
              - id: com.example.app
                kind: native
                associated_domains: [webcredentials:example.com, applinks:example.com]
              - id: com.example.other
                kind: native
            users:
              - id: alice
                email: alice@example.com
                name: Alice Appleseed
                keychain:
                  - {domain: example.com, user: alice@example.com, password: hunter2}
              - id: bob
                email: bob@example.com
                keychain:
                  - {domain: elsewhere.example, user: bob, password: pw}
            domains:
              - domain: example.com
                apple_app_site_association: '{"webcredentials": {"apps": \(apps)}}'
            """)
    }

    @Test func aSavedPasswordForAnAssociatedDomainIsOfferedUntilAppleIDIsUsed() async throws {
        let apple = try await AppleIDMock.start(scenario: Self.scenario())
        defer { apple.shutdown() }
        let first = try apple.performExistingAccountSetupFlows(user: "alice", client: "com.example.app")
        #expect(
            first
                == .password(PasswordCredential(user: "alice@example.com", password: "hunter2", domain: "example.com")))

        let signedIn = try apple.authorize(user: "alice", client: "com.example.app")
        let second = try apple.performExistingAccountSetupFlows(user: "alice", client: "com.example.app")
        guard case .appleID(let credential) = second else {
            Issue.record("expected an Apple ID credential")
            return
        }
        #expect(credential.user == signedIn.user && credential.fullName == nil && credential.email == nil)

        let passwordOnly = try apple.performExistingAccountSetupFlows(
            user: "alice", client: "com.example.app", requests: [.password])
        #expect(passwordOnly == first)
    }

    @Test func nothingToOfferIsCanceledWithImmediateCredentialsElseUnknown() async throws {
        let apple = try await AppleIDMock.start(scenario: Self.scenario())
        defer { apple.shutdown() }
        let canceled = #expect(throws: AppleIDMockError.self) {
            try apple.performExistingAccountSetupFlows(user: "bob", client: "com.example.app")
        }
        #expect(canceled?.kind == .noCredentials && canceled?.authorizationErrorCode == 1001)
        #expect(
            canceled?.message
                == "no credential to offer: bob has not signed in with Apple to com.example.app (or revoked it); "
                + "the password for elsewhere.example: elsewhere.example is not a webcredentials associated domain "
                + "of com.example.app (associated_domains: webcredentials:example.com, applinks:example.com)")
        let unknown = #expect(throws: AppleIDMockError.self) {
            try apple.performExistingAccountSetupFlows(
                user: "bob", client: "com.example.app", requests: [.password],
                preferImmediatelyAvailableCredentials: false)
        }
        #expect(unknown?.authorizationErrorCode == 1000)
        let other = #expect(throws: AppleIDMockError.self) {
            try apple.performExistingAccountSetupFlows(user: "alice", client: "com.example.other")
        }
        #expect(
            other?.message.hasSuffix(
                "example.com is not a webcredentials associated domain of com.example.other (it declares none)") == true
        )

        // Without preferImmediatelyAvailableCredentials the Apple ID sheet appears: a first authorization.
        let sheet = try apple.performExistingAccountSetupFlows(
            user: "bob", client: "com.example.app", preferImmediatelyAvailableCredentials: false)
        guard case .appleID(let credential) = sheet else {
            Issue.record("expected the sign-in sheet")
            return
        }
        #expect(credential.email == "bob@example.com")
    }

    @Test func theAssociationFileMustListTheApp() async throws {
        let apple = try await AppleIDMock.start(scenario: Self.scenario(apps: #"["ABCDE12354.com.example.app"]"#))
        defer { apple.shutdown() }
        let error = #expect(throws: AppleIDMockError.self) {
            try apple.performExistingAccountSetupFlows(user: "alice", client: "com.example.app", requests: [.password])
        }
        #expect(
            error?.message
                == "no credential to offer: the password for example.com: example.com's association does not list "
                + "ABCDE12345.com.example.app: example.com/.well-known/apple-app-site-association:1:30: Team ID "
                + "'ABCDE12354' in 'ABCDE12354.com.example.app' is not the scenario's (did you mean 'ABCDE12345'?)")
    }

    @Test func theControlAPIAnswersTheSameRequestList() async throws {
        let apple = try await AppleIDMock.start(scenario: Self.scenario())
        defer { apple.shutdown() }
        func post(_ json: String) async throws -> (Int, [String: Any]) {
            var request = URLRequest(url: apple.baseURL.appendingPathComponent("mock/credentials"))
            request.httpMethod = "POST"
            request.httpBody = Data(json.utf8)
            let (data, response) = try await URLSession.shared.data(for: request)
            let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
        }
        let (status, password) = try await post(
            #"{"client_id":"com.example.app","user":"alice","requests":["apple_id","password"]}"#)
        #expect(
            status == 200 && password["type"] as? String == "password" && password["password"] as? String == "hunter2")
        let (refused, none) = try await post(
            #"{"client_id":"com.example.app","user":"bob","requests":["password"],"prefer_immediately_available":true}"#
        )
        #expect(refused == 409 && none["error"] as? String == "no_credentials" && none["code"] as? Int == 1001)
        #expect(none["authorization_error"] as? String == "canceled")
        #expect(apple.refusals.last?.reason == none["message"] as? String)
        let (bad, invalid) = try await post(#"{"client_id":"com.example.app","user":"bob","requests":["passkey"]}"#)
        #expect(bad == 400 && invalid["message"] as? String == "unknown request 'passkey' (use apple_id, password)")
    }

    @Test func anAccountUpgradeHasNoNameIsFlaggedAndConsumesThePassword() async throws {
        let apple = try await AppleIDMock.start(scenario: Self.scenario())
        defer { apple.shutdown() }
        let upgraded = try apple.upgradeToSignInWithApple(user: "alice", client: "com.example.app", nonce: "u-1")
        #expect(upgraded.isAccountUpgrade && upgraded.fullName == nil && upgraded.email == "alice@example.com")
        #expect(
            try apple.verify(idToken: upgraded.identityToken, audience: "com.example.app", nonce: "u-1").subject
                == upgraded.user)
        // The system deleted the password; the app now finds the Apple ID credential.
        let after = try apple.performExistingAccountSetupFlows(user: "alice", client: "com.example.app")
        guard case .appleID = after else {
            Issue.record("expected the Apple ID credential after the upgrade")
            return
        }
        let again = #expect(throws: AppleIDMockError.self) {
            try apple.upgradeToSignInWithApple(user: "alice", client: "com.example.app")
        }
        #expect(
            again?.kind == .conflict && again?.message == "no password account to upgrade: alice has no saved passwords"
        )
        #expect(!(try apple.authorize(user: "alice", client: "com.example.app").isAccountUpgrade))
    }
}
