import Foundation
import SIWAMockTesting
import Testing

/// The request/controller shape of AuthenticationServices, and scripted sheet outcomes.
@Suite struct AuthorizationControllerTests {
    @Test func aRequestsScopesNonceAndStateReachTheCredential() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let provider = AppleIDProvider(mock: apple, user: "alice", client: "com.example.app")
        let request = provider.createRequest()
        #expect(request.requestedScopes == nil && request.nonce == nil && request.state == nil)
        request.requestedScopes = [.email]
        request.nonce = "n-7"
        request.state = "s-7"
        let authorization = try await AuthorizationController(authorizationRequests: [request]).performRequests()
        let credential = try #require(authorization.credential as? AppleIDCredential)
        #expect((authorization.provider as? AppleIDProvider)?.user == "alice")
        #expect(credential.user == "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111" && credential.state == "s-7")
        #expect(credential.authorizedScopes == [.email] && credential.email == "alice@example.com")
        #expect(credential.fullName == nil)
        #expect(
            try apple.verify(idToken: credential.identityToken, audience: "com.example.app", nonce: "n-7").nonce
                == "n-7")
        #expect(try await provider.credentialState(forUserID: credential.user) == .authorized)

        // No scopes set: none asked for, as with the framework's request.
        let plain = try await AuthorizationController(
            authorizationRequests: [
                AppleIDProvider(mock: apple, user: "bob", client: "com.example.app").createRequest()
            ]
        ).performRequests()
        let bob = try #require(plain.credential as? AppleIDCredential)
        #expect(bob.authorizedScopes.isEmpty && bob.email == nil && bob.fullName == nil)
    }

    @Test func aScriptedCancelEndsTheNextRequestOnly() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        try apple.failNextAuthorization(with: .canceled)
        let provider = AppleIDProvider(mock: apple, user: "alice", client: "com.example.app")
        let controller = AuthorizationController(authorizationRequests: [provider.createRequest()])
        var caught: AuthorizationError.Code?
        do {
            _ = try await controller.performRequests()
        } catch AuthorizationError.canceled {
            caught = .canceled
        }
        #expect(caught == .canceled)
        // The next request signs in; the canceled one issued nothing, so this is the first authorization.
        let credential = try #require(try await controller.performRequests().credential as? AppleIDCredential)
        #expect(credential.fullName == nil && credential.realUserStatus == .likelyReal)

        // The one-call form reports the same code in the library's error.
        try apple.failNextAuthorization(with: .failed, times: 2)
        for _ in 0..<2 {
            let error = #expect(throws: AppleIDMockError.self) {
                try apple.authorize(user: "alice", client: "com.example.app")
            }
            #expect(error?.kind == .authorization && error?.authorizationErrorCode == 1004)
            #expect(error?.authorizationError?.code == .failed)
        }
        _ = try apple.authorize(user: "alice", client: "com.example.app")
    }

    @Test func theErrorLooksLikeTheFrameworksToCallersThatBridgeIt() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        for code in AuthorizationError.Code.allCases {
            try apple.failNextAuthorization(with: code)
            let request = AppleIDProvider(mock: apple, user: "carol", client: "com.example.app").createRequest()
            let error = await #expect(throws: AuthorizationError.self) {
                try await AuthorizationController(authorizationRequests: [request]).performRequests()
            }
            #expect(error?.code == code)
            let bridged = try #require(error as Error?) as NSError
            #expect(bridged.domain == "com.apple.AuthenticationServices.AuthorizationError")
            #expect(bridged.code == code.rawValue)
        }
        #expect(AuthorizationError.Code.allCases.map(\.rawValue) == [1000, 1001, 1002, 1003, 1004, 1005])
    }

    @Test func aScriptForOneAppLeavesOthersAndMisuseLeavesTheScript() async throws {
        let apple = try await AppleIDMock.start(scenario: ExistingAccountTests.scenario())
        defer { apple.shutdown() }
        try apple.failNextAuthorization(with: .notInteractive, client: "com.example.other")
        _ = try apple.authorize(user: "alice", client: "com.example.app")
        let misuse = #expect(throws: AppleIDMockError.self) {
            try apple.authorize(user: "alcie", client: "com.example.other")
        }
        #expect(misuse?.kind == .notFound)
        let scripted = #expect(throws: AppleIDMockError.self) {
            try apple.authorize(user: "alice", client: "com.example.other")
        }
        #expect(scripted?.authorizationErrorCode == 1005)

        let times = #expect(throws: AppleIDMockError.self) { try apple.failNextAuthorization(with: .failed, times: 0) }
        #expect(times?.kind == .invalid && times?.message == "must be at least 1, found 0")
        let client = #expect(throws: AppleIDMockError.self) {
            try apple.failNextAuthorization(with: .failed, client: "com.example.ap")
        }
        #expect(client?.message == "unknown client 'com.example.ap' (did you mean 'com.example.app'?)")

        try apple.failNextAuthorization(with: .failed)
        apple.clearScriptedAuthorizationFailure()
        _ = try apple.authorize(user: "bob", client: "com.example.app")
        try apple.failNextAuthorization(with: .failed)
        apple.reset()
        _ = try apple.authorize(user: "bob", client: "com.example.app")
    }

    @Test func passwordAndImmediateRequestsAreTheExistingAccountFlow() async throws {
        let apple = try await AppleIDMock.start(scenario: ExistingAccountTests.scenario())
        defer { apple.shutdown() }
        let appleID = AppleIDProvider(mock: apple, user: "alice", client: "com.example.app")
        let password = PasswordProvider(mock: apple, user: "alice", client: "com.example.app")
        let both = AuthorizationController(authorizationRequests: [appleID.createRequest(), password.createRequest()])
        let saved = try await both.performRequests(options: .preferImmediatelyAvailableCredentials)
        #expect(
            saved.credential as? PasswordCredential
                == PasswordCredential(user: "alice@example.com", password: "hunter2", domain: "example.com"))
        #expect(saved.provider is PasswordProvider)

        // Bob has nothing on the device: the framework's canceled, saying why.
        let bobsRequest = AppleIDProvider(mock: apple, user: "bob", client: "com.example.app").createRequest()
        let none = await #expect(throws: AuthorizationError.self) {
            try await AuthorizationController(authorizationRequests: [bobsRequest])
                .performRequests(options: .preferImmediatelyAvailableCredentials)
        }
        #expect(none?.code == .canceled)
        #expect(none?.message.hasPrefix("no credential to offer: bob has not signed in with Apple") == true)
    }

    @Test func controllerMisuseIsTheLibrarysError() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let empty = await #expect(throws: AppleIDMockError.self) {
            try await AuthorizationController(authorizationRequests: []).performRequests()
        }
        #expect(empty?.message == "must hold an AppleIDRequest, a PasswordRequest or both")
        let alice = AppleIDProvider(mock: apple, user: "alice", client: "com.example.app").createRequest()
        let bob = PasswordProvider(mock: apple, user: "bob", client: "com.example.app").createRequest()
        let mixed = await #expect(throws: AppleIDMockError.self) {
            try await AuthorizationController(authorizationRequests: [alice, bob]).performRequests()
        }
        #expect(mixed?.message == "requests of different devices (alice in com.example.app, bob in com.example.app)")
        let twice = await #expect(throws: AppleIDMockError.self) {
            try await AuthorizationController(authorizationRequests: [alice, alice]).performRequests()
        }
        #expect(twice?.message == "at most one AppleIDRequest")
        let web = AppleIDProvider(mock: apple, user: "alice", client: "com.example.web").createRequest()
        let services = await #expect(throws: AppleIDMockError.self) {
            try await AuthorizationController(authorizationRequests: [web]).performRequests()
        }
        #expect(services?.kind == .invalid && services?.field == "client_id")
    }
}
