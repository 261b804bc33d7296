import AppleSignInBackend
import Foundation
import SIWAMockTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The app's seam around AuthenticationServices. On a device, `ASAuthorizationAppleIDProvider`,
// `ASAuthorizationAppleIDRequest` and `ASAuthorization.Scope` conform; in tests the mock's types do,
// with empty bodies: they have the framework's names and shapes.
protocol SignInScope { static var fullName: Self { get } }
protocol SignInRequest: AnyObject {
    associatedtype Scope: SignInScope
    var requestedScopes: [Scope]? { get set }
    var nonce: String? { get set }
    var state: String? { get set }
}
protocol SignInProvider {
    associatedtype Request: SignInRequest
    func createRequest() -> Request
}
extension AuthorizationScope: SignInScope {}
extension AppleIDRequest: SignInRequest {}
extension AppleIDProvider: SignInProvider {}

/// The app's sign-in logic, written once against the seam: ask for the name, send a nonce, hand the
/// credential to the backend; the user closing the sheet is no error, and a revocation signs the user out.
struct SignInModel<Provider: SignInProvider> {
    enum Outcome: Equatable {
        case signedIn(SignInService.Account)
        case userCanceled
    }

    var provider: Provider
    /// Runs the requests (`ASAuthorizationController` behind a delegate on a device).
    var perform: (Provider.Request) async throws -> Authorization
    var backend: SignInService

    func signIn(nonce: String) async throws -> Outcome {
        let request = provider.createRequest()
        request.requestedScopes = [.fullName]
        request.nonce = nonce
        request.state = "sign-in"
        do {
            let authorization = try await perform(request)
            guard let credential = authorization.credential as? AppleIDCredential, credential.state == "sign-in" else {
                throw SignInError.invalidToken("unexpected credential")
            }
            return .signedIn(
                try await backend.signIn(
                    identityToken: credential.identityTokenString,
                    authorizationCode: credential.authorizationCodeString,
                    nonce: nonce, fullName: credential.fullName))
        } catch AuthorizationError.canceled {
            return .userCanceled
        }
    }
}

@Suite struct AppSideFlowTests {
    @Test func theAppsSignInRunsOnTheMockAndACancelIsNoError() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let backend = SignInServiceTests.backend(for: apple, session: session)
        let model = SignInModel(
            provider: AppleIDProvider(mock: apple, user: "alice", client: "com.example.app"),
            perform: { try await AuthorizationController(authorizationRequests: [$0]).performRequests() },
            backend: backend)

        try apple.failNextAuthorization(with: .canceled)
        #expect(try await model.signIn(nonce: "n-1") == .userCanceled)
        #expect(apple.requests(path: "/auth/token").isEmpty)

        guard case .signedIn(let account) = try await model.signIn(nonce: "n-2") else {
            Issue.record("expected a sign-in")
            return
        }
        #expect(account.displayName == "Alice Appleseed" && account.email == nil)

        try apple.failNextAuthorization(with: .failed)
        await #expect(throws: AuthorizationError(.failed, "scripted by failNextAuthorization(with: .failed)")) {
            _ = try await model.signIn(nonce: "n-3")
        }
    }

    @Test func aRevocationOnTheDeviceSignsTheUserOut() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let provider = AppleIDProvider(mock: apple, user: "bob", client: "com.example.app")
        let revocations = try provider.credentialRevocations()
        let request = provider.createRequest()
        let credential = try #require(
            try await AuthorizationController(authorizationRequests: [request]).performRequests().credential
                as? AppleIDCredential)
        #expect(try await provider.credentialState(forUserID: credential.user) == .authorized)

        try apple.revoke(user: "bob")  // Settings → Stop using Apple ID; the built-in group has no notification URL
        let revocation = try #require(await Self.next(of: revocations, within: .seconds(5)))
        #expect(revocation.user == credential.user && revocation.reason == .consentRevoked)
        #expect(try await provider.credentialState(forUserID: revocation.user) == .revoked)

        try apple.deleteAccount(user: "bob")
        #expect(try await provider.credentialState(forUserID: credential.user) == .notFound)
    }

    /// The stream's next element, or nil when none comes within `limit`: a missing revocation fails the
    /// test instead of hanging it.
    static func next<Element: Sendable>(of stream: AsyncStream<Element>, within limit: Duration) async -> Element? {
        await withTaskGroup(of: Element?.self) { group in
            group.addTask {
                var iterator = stream.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
