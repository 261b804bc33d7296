import AppleSignInBackend
import Foundation
import SIWAMockTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The backend against an in-process Apple: each test starts its own mock, so they run in parallel.
@Suite struct SignInServiceTests {
    /// The backend for `apple`, on its own URL session: each test invalidates its session before it
    /// ends, so no FoundationNetworking work is still running when the test process exits.
    static func backend(for apple: AppleIDMock, session: URLSession) -> SignInService {
        SignInService(
            configuration: AppleConfiguration(
                baseURL: apple.baseURL, bundleID: "com.example.app",
                clientSecret: { try apple.clientSecret(client: "com.example.app") }),
            session: session, now: { apple.now })
    }

    @Test func firstSignInCreatesTheAccountWithNameAndEmail() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let backend = Self.backend(for: apple, session: session)
        let credential = try apple.authorize(user: "bob", client: "com.example.app", nonce: "n-1")
        let account = try await backend.signIn(
            identityToken: credential.identityTokenString, authorizationCode: credential.authorizationCodeString,
            nonce: "n-1", fullName: credential.fullName)
        #expect(account.appleSubject == credential.user && account.email == "k7x2m9q4ab@privaterelay.appleid.com")
        #expect(account.displayName == "Bob Bobson" && account.refreshToken != nil)

        // The second sign-in carries no name; the account keeps it.
        let again = try apple.authorize(user: "bob", client: "com.example.app", nonce: "n-2")
        #expect(again.fullName == nil)
        let same = try await backend.signIn(
            identityToken: again.identityTokenString, authorizationCode: again.authorizationCodeString, nonce: "n-2",
            fullName: again.fullName)
        #expect(same.displayName == "Bob Bobson")
    }

    @Test func aReplayedOrLateCodeIsRefusedAndTheJournalSaysWhy() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let backend = Self.backend(for: apple, session: session)
        let credential = try apple.authorize(user: "alice", client: "com.example.app", nonce: "n")
        _ = try await backend.signIn(
            identityToken: credential.identityTokenString, authorizationCode: credential.authorizationCodeString,
            nonce: "n")
        await #expect(throws: SignInError.appleRefused(status: 400, error: "invalid_grant")) {
            _ = try await backend.signIn(
                identityToken: credential.identityTokenString,
                authorizationCode: credential.authorizationCodeString, nonce: "n")
        }
        #expect(apple.refusals.last?.reason == "code was redeemed before")

        let late = try apple.authorize(user: "alice", client: "com.example.app", nonce: "n")
        apple.advanceClock(by: .seconds(301))
        await #expect(throws: SignInError.appleRefused(status: 400, error: "invalid_grant")) {
            _ = try await backend.signIn(
                identityToken: late.identityTokenString, authorizationCode: late.authorizationCodeString, nonce: "n")
        }
    }

    @Test func aWrongNonceOrAudienceNeverReachesTheTokenEndpoint() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let backend = Self.backend(for: apple, session: session)
        let credential = try apple.authorize(user: "alice", client: "com.example.app", nonce: "right")
        await #expect(throws: SignInError.invalidToken("nonce mismatch")) {
            _ = try await backend.signIn(
                identityToken: credential.identityTokenString,
                authorizationCode: credential.authorizationCodeString, nonce: "wrong")
        }
        #expect(apple.requests(path: "/auth/token").isEmpty)

        // A token whose claims were changed after signing fails the RS256 check.
        var parts = credential.identityTokenString.split(separator: ".").map(String.init)
        let claims = try #require(Data(base64Encoded: Self.padded(parts[1])))
        let forged = String(decoding: claims, as: UTF8.self).replacingOccurrences(of: "\"right\"", with: "\"wrong\"")
        parts[1] = Data(forged.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        await #expect(throws: SignInError.invalidToken("bad signature")) {
            _ = try await backend.signIn(
                identityToken: parts.joined(separator: "."), authorizationCode: credential.authorizationCodeString,
                nonce: "wrong")
        }
    }

    static func padded(_ base64URL: String) -> String {
        let base64 = base64URL.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4)
    }

    @Test func aRotatedKeyIsFetchedAndDeletingTheAccountRevokes() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let backend = Self.backend(for: apple, session: session)
        let first = try apple.authorize(user: "carol", client: "com.example.app")
        _ = try await backend.signIn(
            identityToken: first.identityTokenString, authorizationCode: first.authorizationCodeString, nonce: nil)
        try await apple.rotateSigningKey()
        let second = try apple.authorize(user: "carol", client: "com.example.app")
        _ = try await backend.signIn(
            identityToken: second.identityTokenString, authorizationCode: second.authorizationCodeString, nonce: nil)
        #expect(apple.requests(path: "/auth/keys").count == 2, "fetched again for the new kid")

        try await backend.deleteAccount(appleSubject: second.user)
        #expect(apple.requests(path: "/auth/revoke").last?.outcome == "ok")
        #expect(try apple.credentialState(forUserID: second.user, client: "com.example.app") == .revoked)
    }

    @Test func twoMocksInParallelServeTwoBackends() async throws {
        async let one = AppleIDMock.start()
        async let two = AppleIDMock.start()
        let mocks = try await [one, two]
        defer { for mock in mocks { mock.shutdown() } }
        try await withThrowingTaskGroup(of: String.self) { group in
            for apple in mocks {
                group.addTask {
                    let session = URLSession(configuration: .ephemeral)
                    defer { session.invalidateAndCancel() }
                    let backend = Self.backend(for: apple, session: session)
                    let credential = try apple.authorize(user: "alice", client: "com.example.app", nonce: "p")
                    return try await backend.signIn(
                        identityToken: credential.identityTokenString,
                        authorizationCode: credential.authorizationCodeString, nonce: "p"
                    ).appleSubject ?? ""
                }
            }
            var subjects: [String] = []
            for try await subject in group { subjects.append(subject) }
            #expect(subjects == [subjects[0], subjects[0]] && subjects.count == 2)
        }
        // Each mock saw only its own backend's calls.
        #expect(mocks.map { $0.requests(path: "/auth/token").count } == [1, 1])
    }
}
