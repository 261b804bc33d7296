import Foundation
import SIWAMockTesting
import Testing

/// The device's side of revocation: `credentialRevokedNotification` per app, and `.notFound` for
/// identifiers the mock does not know.
@Suite struct CredentialRevocationTests {
    static let scenario = ScenarioSource.text(
        """
        teams:
          - id: ABCDE12345
        clients:
          - id: com.example.app
            kind: native
          - id: com.example.other
            kind: native
        app_groups:
          - id: com.example.app
            primary: com.example.app
            clients: [com.example.app]
        users:
          - id: alice
            email: alice@example.com
          - id: bob
            email: bob@example.com
        """)

    @Test func revocationsReachTheAppsStreamWithOrWithoutANotificationURL() async throws {
        let apple = try await AppleIDMock.start(scenario: Self.scenario)
        let app = try apple.credentialRevocations(client: "com.example.app")
        let other = try AppleIDProvider(mock: apple, user: "alice", client: "com.example.other").credentialRevocations()
        let alice = try apple.authorize(user: "alice", client: "com.example.app")
        let bob = try apple.authorize(user: "bob", client: "com.example.app")
        let before = apple.now
        try apple.revoke(user: "alice")  // the group has no notification URL
        try apple.setNotificationURL(URL(string: "http://127.0.0.1:9/apple"), forAppGroup: "com.example.app")
        try apple.deleteAccount(user: "bob")
        try apple.setEmailForwarding(user: "alice", enabled: false)  // not a revocation
        apple.shutdown()

        var received: [CredentialRevocation] = []
        for await revocation in app { received.append(revocation) }
        #expect(received.map(\.user) == [alice.user, bob.user])
        #expect(received.map(\.reason) == [.consentRevoked, .accountDeleted])
        #expect(received.allSatisfy { $0.client == "com.example.app" && abs($0.date.timeIntervalSince(before)) < 5 })
        var elsewhere: [CredentialRevocation] = []
        for await revocation in other { elsewhere.append(revocation) }
        #expect(elsewhere.isEmpty)
    }

    @Test func aStreamForAnUnknownAppIsRefusedAndStreamsEndAtShutdown() async throws {
        let apple = try await AppleIDMock.start()
        let error = #expect(throws: AppleIDMockError.self) { try apple.credentialRevocations(client: "com.example.ap") }
        #expect(error?.message == "unknown client 'com.example.ap' (did you mean 'com.example.app'?)")
        apple.shutdown()
        let late = try apple.credentialRevocations(client: "com.example.app")
        for await _ in late { Issue.record("a stream opened after shutdown yields nothing") }
    }

    @Test func anyIdentifierTheMockDoesNotKnowIsNotFound() async throws {
        let apple = try await AppleIDMock.start()
        defer { apple.shutdown() }
        let carol = try apple.authorize(user: "carol", client: "com.example.app")
        try apple.deleteAccount(user: "carol")
        #expect(try apple.credentialState(forUserID: carol.user, client: "com.example.app") == .notFound)
        #expect(try apple.credentialState(forUserID: "000999.nobody.0000", client: "com.example.app") == .notFound)
        #expect(try apple.credentialState(forUserID: "alcie", client: "com.example.app") == .notFound)
        #expect(apple.logLines.contains { $0.contains("'alcie' (did you mean 'alice'?)") && $0.hasSuffix("notFound") })
        let client = #expect(throws: AppleIDMockError.self) {
            try apple.credentialState(forUserID: "nobody", client: "com.example.ap")
        }
        #expect(client?.kind == .notFound && client?.field == "client_id")
    }
}
