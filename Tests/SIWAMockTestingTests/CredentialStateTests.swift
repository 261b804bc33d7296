import SIWAMockTesting
import Testing

/// `getCredentialState(forUserID:)` for users the mock does not know: `.notFound`, never an error.
@Suite struct CredentialStateTests {
    @Test func deletedAndUnknownUsersAreNotFoundWithTheReasonLogged() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let credential = try apple.authorize(user: "bob", client: "com.example.app")
        #expect(try apple.credentialState(forUserID: credential.user, client: "com.example.app") == .authorized)
        try apple.deleteAccount(user: "bob")
        #expect(try apple.credentialState(forUserID: credential.user, client: "com.example.app") == .notFound)
        #expect(try apple.credentialState(forUserID: "000000.never.0000", client: "com.example.app") == .notFound)
        #expect(
            apple.logLines.contains {
                $0.contains("notFound: user 'bob' (identifier '\(credential.user)') was deleted at ")
            })
        #expect(apple.logLines.contains { $0.contains("no user has the identifier '000000.never.0000'") })
        let unknownApp = #expect(throws: AppleIDMockError.self) {
            try apple.credentialState(forUserID: credential.user, client: "com.example.nope")
        }
        #expect(unknownApp?.kind == .notFound && unknownApp?.field == "client_id")
    }
}
