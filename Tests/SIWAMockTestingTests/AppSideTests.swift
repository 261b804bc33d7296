import Foundation
import SIWAMockTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app's side: credentials as AuthenticationServices gives them, and a backend redeeming them.
@Suite struct AppSideTests {
    @Test func nativeCredentialRedeemsAtTheTokenEndpointAndVerifies() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let credential = try apple.authorize(user: "alice", client: "com.example.app", nonce: "n-1", state: "s-1")
        #expect(credential.user == "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111")
        #expect(credential.fullName?.givenName == "Alice" && credential.fullName?.familyName == "Appleseed")
        #expect(credential.email == "alice@example.com" && credential.state == "s-1")
        #expect(credential.realUserStatus == .likelyReal && credential.authorizedScopes == [.fullName, .email])

        let claims = try apple.verify(idToken: credential.identityToken, audience: "com.example.app", nonce: "n-1")
        #expect(claims.subject == credential.user && claims.realUserStatus == .likelyReal)
        #expect(claims.issuer == "https://appleid.apple.com" && claims.codeHash != nil)

        let secret = try apple.clientSecret(client: "com.example.app")
        let answer = try await HTTPForm.post(
            apple.endpoints.token,
            [
                ("grant_type", "authorization_code"), ("code", credential.authorizationCodeString),
                ("client_id", "com.example.app"), ("client_secret", secret),
            ])
        #expect(answer.status == 200)
        let redeemed = try #require(answer.json["id_token"] as? String)
        #expect(try apple.verify(idToken: redeemed, audience: "com.example.app").subject == credential.user)

        let again = try apple.authorize(user: "alice", client: "com.example.app")
        #expect(again.fullName == nil && again.email == nil && again.realUserStatus == .unsupported)
    }

    @Test func credentialStateFollowsTheUsersChoices() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        #expect(try apple.credentialState(forUserID: "carol", client: "com.example.app") == .notFound)
        let credential = try apple.authorize(user: "carol", client: "com.example.app")
        #expect(try apple.credentialState(forUserID: credential.user, client: "com.example.app") == .authorized)
        try apple.revoke(user: "carol")
        #expect(try apple.credentialState(forUserID: credential.user, client: "com.example.app") == .revoked)
        try apple.markTransferred(user: "bob")
        #expect(try apple.credentialState(forUserID: "bob", client: "com.example.app") == .transferred)
    }

    @Test func misuseNamesWhatWasMeant() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let unknown = #expect(throws: AppleIDMockError.self) {
            try apple.authorize(user: "alcie", client: "com.example.app")
        }
        #expect(unknown?.kind == .notFound && unknown?.field == "user")
        #expect(unknown?.message == "unknown user 'alcie' (did you mean 'alice'?)")

        let services = #expect(throws: AppleIDMockError.self) {
            try apple.authorize(user: "alice", client: "com.example.web")
        }
        #expect(services?.kind == .invalid && services?.field == "client_id")
        #expect(
            services?.message
                == "'com.example.web' is a Services ID; native credentials come from App IDs (did you mean 'com.example.app'?)"
        )
        let client = #expect(throws: AppleIDMockError.self) {
            try apple.credentialState(forUserID: "alice", client: "com.example.ap")
        }
        #expect(client?.message == "unknown client 'com.example.ap' (did you mean 'com.example.app'?)")
    }

    @Test func errorsCarryTheJournalsReason() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let swiftError = #expect(throws: AppleIDMockError.self) {
            try apple.authorize(user: "alcie", client: "com.example.app")
        }
        var request = URLRequest(url: apple.baseURL.appendingPathComponent("mock/credentials"))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"client_id":"com.example.app","user":"alcie"}"#.utf8)
        _ = try await URLSession.shared.data(for: request)
        let entry = try #require(apple.requests(path: "/mock/credentials").last)
        #expect(entry.status == 404 && entry.reason == swiftError?.message)
    }

    @Test func webSignInDeliversWhatTheBrowserPosts() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let web = try apple.webSignIn(user: "bob", client: "com.example.web", nonce: "n-2", state: "st")
        #expect(web.fields.map(\.name) == ["state", "code", "id_token", "user"] && web.state == "st")
        #expect(
            web.user
                == #"{"name":{"firstName":"Bob","lastName":"Bobson"},"email":"k7x2m9q4ab@privaterelay.appleid.com"}"#)
        let claims = try apple.verify(idToken: try #require(web.idToken), audience: "com.example.web", nonce: "n-2")
        #expect(claims.isPrivateEmail == true && claims.codeHash != nil)
        let answer = try await HTTPForm.post(
            apple.endpoints.token,
            [
                ("grant_type", "authorization_code"), ("code", web.code), ("client_id", "com.example.web"),
                ("client_secret", try apple.clientSecret(client: "com.example.web")),
                ("redirect_uri", "https://app.example.com/auth/apple/callback"),
            ])
        #expect(answer.status == 200 && answer.json["refresh_token"] is String)
        #expect(apple.requests(path: "/auth/authorize").last?.user == "bob")

        let refused = #expect(throws: AppleIDMockError.self) {
            try apple.webSignIn(user: "bob", client: "com.example.web", redirectURI: "https://evil.example/cb")
        }
        #expect(refused?.message == apple.refusals.last?.reason && refused?.message.isEmpty == false)
    }

    @Test func clientSecretForAnUnregisteredKeySaysWhyTokenWouldRefuseIt() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let error = #expect(throws: AppleIDMockError.self) {
            try apple.clientSecret(client: "com.example.web", keyID: "OTHERKEY99")
        }
        #expect(error?.field == "client_secret" && error?.message.contains("OTHERKEY99") == true)
    }
}
