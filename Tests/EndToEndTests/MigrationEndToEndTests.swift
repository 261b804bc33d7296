import Foundation
import HTTP
import JOSE
import JSON
import Testing

/// `/auth/usermigrationinfo` in both directions against the binary serving a two-team scenario file.
@Suite struct MigrationEndToEndTests {
    static let keys = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scenarios/keys").path
    static let bobSub = "001234.1b2c3d4e5f60718293a4b5c6d7e8f90a.2222"

    static let scenario = """
        clock: {start: 2026-01-10T00:00:00Z, frozen: true}
        teams:
          - id: ABCDE12345
            keys: [{id: KEY1234567, pem_file: \(keys)/AuthKey_KEY1234567.pub.pem}]
          - id: ZYXWV98765
            keys: [{id: KEY1234567, pem_file: \(keys)/AuthKey_KEY1234567.pub.pem}]
        clients:
          - {id: com.example.app, team: ABCDE12345, kind: native}
          - {id: com.moved.app, team: ZYXWV98765, kind: native}
        transfers:
          - {from: ABCDE12345, to: ZYXWV98765, accepted_at: 2026-01-01T00:00:00Z, clients: [com.moved.app]}
        signing_keys:
          - {kid: Aj3F8kLq2X, pem_file: \(keys)/signing-Aj3F8kLq2X.pem, signs: true}
        users:
          - id: bob
            sub: \(bobSub)
            email: bob@example.com
            private_email: true
            relay_email: k7x2m9q4ab@privaterelay.appleid.com
        """

    func secret(_ clientID: String, team: String) throws -> String {
        let run = try MockProcess.run([
            "client-secret", "--team-id", team, "--client-id", clientID, "--key-id", "KEY1234567", "--key",
            CLICommandTests.testKey,
        ])
        try #require(run.status == 0, "\(run.stderr)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func post(_ mock: MockProcess, _ target: String, _ fields: [(String, String)], bearer: String? = nil) throws
        -> HTTPClientResponse
    {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/x-www-form-urlencoded")
        if let bearer { headers.add("Authorization", "Bearer \(bearer)") }
        return try HTTPClient.send(
            HTTPClientRequest(
                method: "POST", target: target, headers: headers, body: Array(URLEncodedForm.encode(fields).utf8)),
            host: "127.0.0.1", port: mock.port)
    }

    func accessToken(_ mock: MockProcess, _ clientID: String, _ secret: String) throws -> String {
        let response = try post(
            mock, "/auth/token",
            [
                ("grant_type", "client_credentials"), ("scope", "user.migration"), ("client_id", clientID),
                ("client_secret", secret),
            ])
        return try #require(try JSONValue.parse(response.body)["access_token"]?.stringValue, "\(response.bodyText)")
    }

    @Test func bothDirectionsThenTheWindowCloses() throws {
        // The secrets are minted by the CLI at real time; the mock's frozen clock is earlier, which the
        // secret's iat tolerance would refuse — so the scenario clock is moved to now first.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "siwa-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("transfer.yaml")
        let now = Int64(Date().timeIntervalSince1970)
        let accepted = Date(timeIntervalSince1970: TimeInterval(now - 86400))
        let text = Self.scenario
            .replacingOccurrences(
                of: "2026-01-10T00:00:00Z",
                with: ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(now)))
            )
            .replacingOccurrences(of: "2026-01-01T00:00:00Z", with: ISO8601DateFormatter().string(from: accepted))
        try text.write(to: file, atomically: true, encoding: .utf8)
        let mock = try MockProcess(["--scenario", file.path])

        let senderSecret = try secret("com.example.app", team: "ABCDE12345")
        let senderToken = try accessToken(mock, "com.example.app", senderSecret)
        let created = try post(
            mock, "/auth/usermigrationinfo",
            [
                ("sub", Self.bobSub), ("target", "ZYXWV98765"), ("client_id", "com.example.app"),
                ("client_secret", senderSecret),
            ],
            bearer: senderToken)
        #expect(created.status == 200, "\(created.bodyText)")
        let transferSub = try #require(try JSONValue.parse(created.body)["transfer_sub"]?.stringValue)

        let recipientSecret = try secret("com.moved.app", team: "ZYXWV98765")
        let recipientToken = try accessToken(mock, "com.moved.app", recipientSecret)
        let exchange = [
            ("transfer_sub", transferSub), ("client_id", "com.moved.app"), ("client_secret", recipientSecret),
        ]
        let exchanged = try post(mock, "/auth/usermigrationinfo", exchange, bearer: recipientToken)
        #expect(exchanged.status == 200, "\(exchanged.bodyText)")
        let identity = try JSONValue.parse(exchanged.body)
        let newSub = try #require(identity["sub"]?.stringValue)
        #expect(newSub != Self.bobSub && identity["is_private_email"] == .bool(true))
        #expect(identity["email"]?.stringValue?.hasSuffix("@privaterelay.appleid.com") == true)

        // Silent re-authorization of the moved app with the old id returns the new team's id.
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json")
        let body: JSONValue = ["client_id": "com.moved.app", "user": .string(Self.bobSub)]
        let credential = try HTTPClient.send(
            HTTPClientRequest(method: "POST", target: "/mock/credentials", headers: headers, body: body.serialized()),
            host: "127.0.0.1", port: mock.port)
        let parsed = try JSONValue.parse(credential.body)
        #expect(parsed["user"] == .string(newSub))
        #expect(
            try JWS(compact: try #require(parsed["identityToken"]?.stringValue)).payload["transfer_sub"]
                == .string(transferSub))

        // 60 days after acceptance the exchange is switched off.
        let advanced = try MockProcess.run(["clock", "advance", "60d", "--url", mock.baseURL])
        #expect(advanced.status == 0, "\(advanced.stderr)")
        let late = try post(
            mock, "/auth/usermigrationinfo", exchange, bearer: try accessToken(mock, "com.moved.app", recipientSecret))
        #expect(late.status == 400)
        #expect(late.bodyText == #"{"error":"invalid_request","error_description":"The transfer window has closed"}"#)
        #expect(mock.stop() == 0)
    }
}
