import EventLoop
import Foundation
import HTTP
import JOSE
import JSON
import Synchronization
import Testing

/// The control API and the driving CLI verbs against the built binary, as a backend's test suite uses them.
@Suite struct ControlEndToEndTests {
    static let aliceSub = "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111"

    func call(
        _ mock: MockProcess, _ method: String, _ target: String, _ body: JSONValue? = nil, token: String? = nil
    ) throws -> HTTPClientResponse {
        var headers = HTTPHeaders()
        if body != nil { headers.add("Content-Type", "application/json") }
        if let token { headers.add("Authorization", "Bearer \(token)") }
        return try HTTPClient.send(
            HTTPClientRequest(method: method, target: target, headers: headers, body: body?.serialized() ?? []),
            host: "127.0.0.1", port: mock.port)
    }

    func json(_ response: HTTPClientResponse) throws -> JSONValue { try JSONValue.parse(response.body) }

    func form(_ mock: MockProcess, _ target: String, _ fields: [(String, String)], bearer: String? = nil) throws
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

    func secret(_ clientID: String) throws -> String { try ServeTests().clientSecret(clientID: clientID) }

    /// Verifies a JWS against the mock's `/auth/keys`.
    func verify(_ compact: String, on mock: MockProcess) throws -> JSONObject {
        let jws = try JWS(compact: compact)
        let jwks = try JWKS(json: try JSONValue.parse(try call(mock, "GET", "/auth/keys").body))
        let kid = try #require(jws.keyID)
        let key = try RSAPublicKey(jwk: try #require(jwks.key(withID: kid)))
        #expect(jws.isSigned(by: key), "signature verifies against /auth/keys")
        return jws.payload
    }

    @Test func nativeCredentialRedeemedByABackendAndExpiredByTheClock() throws {
        let mock = try MockProcess()
        let credential = try json(
            try call(
                mock, "POST", "/mock/credentials", ["client_id": "com.example.app", "user": "alice", "nonce": "n-1"]))
        let code = try #require(credential["authorizationCode"]?.stringValue)
        let claims = try verify(try #require(credential["identityToken"]?.stringValue), on: mock)
        #expect(claims["nonce"] == .string("n-1") && claims["real_user_status"] == .int(2) && claims["c_hash"] != nil)
        let secret = try secret("com.example.app")
        let redeemed = try form(
            mock, "/auth/token",
            [
                ("grant_type", "authorization_code"), ("code", code), ("client_id", "com.example.app"),
                ("client_secret", secret),
            ])
        #expect(redeemed.status == 200, "\(redeemed.bodyText)")
        #expect(
            try json(try call(mock, "GET", "/mock/credential-state?user=\(Self.aliceSub)&client_id=com.example.app"))[
                "state"] == .string("authorized"))

        // A second code, then the clock moves past the 5-minute expiry.
        let second = try json(
            try call(mock, "POST", "/mock/credentials", ["client_id": "com.example.app", "user": "alice"]))
        #expect(second["email"] == .null)
        #expect(try call(mock, "POST", "/mock/clock", ["advance": "6m"]).status == 200)
        let expired = try form(
            mock, "/auth/token",
            [
                ("grant_type", "authorization_code"), ("code", second["authorizationCode"]?.stringValue ?? ""),
                ("client_id", "com.example.app"), ("client_secret", secret),
            ])
        #expect(
            expired.bodyText
                == #"{"error":"invalid_grant","error_description":"The code has expired or has been revoked."}"#)

        // The journal shows what the backend did, without secrets.
        let journal = try call(mock, "GET", "/mock/requests?path=/auth/token&user=alice")
        let entries = try #require(try json(journal)["requests"]?.arrayValue)
        #expect(entries.compactMap { $0["outcome"]?.stringValue } == ["ok", "invalid_grant"])
        #expect(!journal.bodyText.contains(code) && !journal.bodyText.contains(secret))
        #expect(mock.stop() == 0)
    }

    @Test func usersKeysResetAndCredentialState() throws {
        let mock = try MockProcess()
        _ = try call(mock, "POST", "/mock/credentials", ["client_id": "com.example.app", "user": "bob"])
        #expect(
            try json(try call(mock, "PATCH", "/mock/users/bob", ["credential_state": "revoked"]))["credential_state"]
                == .string("revoked"))
        #expect(
            try json(try call(mock, "GET", "/mock/credential-state?user=bob&client_id=com.example.app"))["state"]
                == .string("revoked"))
        // A deleted account is notFound, like one never known (Apple's "the user can't be found").
        #expect(try call(mock, "DELETE", "/mock/users/bob").status == 200)
        let deleted = try call(mock, "GET", "/mock/credential-state?user=bob&client_id=com.example.app")
        #expect(try deleted.status == 200 && json(deleted)["state"] == .string("notFound"))
        let added = try call(mock, "POST", "/mock/users", ["id": "erin", "email": "erin@example.org"])
        #expect(added.status == 201)
        #expect(try call(mock, "GET", "/mock/users/erin").status == 200)
        let unknown = try call(mock, "GET", "/mock/users/nobody")
        #expect(try unknown.status == 404 && json(unknown)["message"] == .string("unknown user 'nobody'"))
        let bad = try call(mock, "PATCH", "/mock/users/erin", ["real_user_status": "maybe"])
        #expect(try bad.status == 400 && json(bad)["field"] == .string("real_user_status"))

        // Right after start no pre-generated key is ready: the rotation waits for one, off the event loop,
        // and answers 200 on its one attempt (it answered 503 "retry in a second" before issue #22).
        let rotation = try call(mock, "POST", "/mock/keys/rotate")
        #expect(rotation.status == 200, "\(rotation.body)")
        let rotated = try json(rotation)
        let newKid = try #require(rotated["signing_kid"]?.stringValue)
        let jwks = try JWKS(json: try JSONValue.parse(try call(mock, "GET", "/auth/keys").body))
        #expect(jwks.keys.map(\.kid).contains(newKid) && jwks.keys.count == 4)
        #expect(try call(mock, "POST", "/mock/keys/Aj3F8kLq2X/retire").status == 200)
        #expect(try JWKS(json: try JSONValue.parse(try call(mock, "GET", "/auth/keys").body)).keys.count == 3)

        #expect(try call(mock, "POST", "/mock/reset").status == 200)
        #expect(try call(mock, "GET", "/mock/users/erin").status == 404)
        #expect(
            try JWKS(json: try JSONValue.parse(try call(mock, "GET", "/auth/keys").body)).keys.map(\.kid) == [
                "Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm",
            ])
        #expect(
            try json(try call(mock, "GET", "/mock/credential-state?user=bob&client_id=com.example.app"))["state"]
                == .string("notFound"))
        let openAPI = try call(mock, "GET", "/mock/openapi.json")
        #expect(try openAPI.status == 200 && json(openAPI)["paths"]?["/mock/credentials"] != nil)
        #expect(mock.stop() == 0)
    }

    @Test func scenarioIsReplacedAtomicallyOrNotAtAll() throws {
        let mock = try MockProcess()
        let keys = MigrationEndToEndTests.keys
        let broken = "teams:\n  - id: lowercase\nusers:\n  - id: x\n    emial: x@example.com\n"
        let refused = try HTTPClient.send(
            HTTPClientRequest(method: "PUT", target: "/mock/scenario", body: Array(broken.utf8)), host: "127.0.0.1",
            port: mock.port)
        #expect(refused.status == 400, "\(refused.bodyText)")
        let errors = try #require(try json(refused)["errors"]?.arrayValue?.compactMap(\.stringValue))
        #expect(
            errors.contains("scenario:2:9: team id 'lowercase' must be 10 uppercase letters or digits"), "\(errors)")
        #expect(errors.contains("scenario:5:5: unknown key 'emial' (did you mean 'email'?)"), "\(errors)")
        #expect(try call(mock, "GET", "/mock/users/alice").status == 200, "old scenario untouched")

        // Keys inline: a scenario sent over HTTP reads no files (FileAccessEndToEndTests).
        let text = """
            teams:
              - id: ABCDE12345
                keys:
                  - id: KEY1234567
                    pem: |
            \(try FileAccessEndToEndTests.indentedPEM("\(keys)/AuthKey_KEY1234567.pub.pem", spaces: 10))
            clients: [{id: com.example.app, kind: native}]
            signing_keys:
              - kid: Aj3F8kLq2X
                signs: true
                pem: |
            \(try FileAccessEndToEndTests.indentedPEM("\(keys)/signing-Aj3F8kLq2X.pem", spaces: 6))
            users: [{id: zoe, email: zoe@example.com}]
            """
        let replaced = try HTTPClient.send(
            HTTPClientRequest(method: "PUT", target: "/mock/scenario", body: Array(text.utf8)), host: "127.0.0.1",
            port: mock.port)
        #expect(replaced.status == 200, "\(replaced.bodyText)")
        let active = try json(try call(mock, "GET", "/mock/scenario"))
        #expect(active["source"] == .string("PUT /mock/scenario") && active["text"] == .string(text))
        #expect(try call(mock, "GET", "/mock/users/alice").status == 404)
        let credential = try call(mock, "POST", "/mock/credentials", ["client_id": "com.example.app", "user": "zoe"])
        #expect(credential.status == 200, "\(credential.bodyText)")
        #expect(mock.stop() == 0)
    }

    @Test func adminTokenProtectsOnlyTheControlAPI() throws {
        let mock = try MockProcess(["--admin-token", "t0ken"])
        #expect(try call(mock, "POST", "/mock/reset").status == 401)
        #expect(try call(mock, "POST", "/mock/reset", token: "t0ken").status == 200)
        #expect(try call(mock, "GET", "/auth/keys").status == 200)
        let cli = try MockProcess.run(["clock", "--url", mock.baseURL])
        #expect(cli.status == 1 && cli.stderr.contains("401"))
        let authorized = try MockProcess.run(
            ["clock", "--url", mock.baseURL], environment: ["SIWA_MOCK_ADMIN_TOKEN": "t0ken"])
        #expect(authorized.status == 0 && authorized.stdout.contains("epoch_seconds"))
        #expect(mock.stop() == 0)
    }

    @Test func cliVerbsDriveTheRunningMock() throws {
        let mock = try MockProcess()
        let url = ["--url", mock.baseURL]
        let credential = try MockProcess.run(
            ["credential", "--user", "alice", "--client", "com.example.app", "--state", "s9"] + url)
        #expect(credential.status == 0, "\(credential.stderr)")
        let parsed = try JSONValue.parse(credential.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(parsed["user"] == .string(Self.aliceSub) && parsed["state"] == .string("s9"))
        let before = try json(try call(mock, "GET", "/mock/clock"))["epoch_seconds"]?.intValue ?? 0
        let advanced = try MockProcess.run(["clock", "advance", "6m"] + url)
        #expect(advanced.status == 0)
        let after =
            try JSONValue.parse(advanced.stdout.trimmingCharacters(in: .whitespacesAndNewlines))["epoch_seconds"]?
            .intValue ?? 0
        #expect(after - before >= 360 && after - before < 400)
        let requests = try MockProcess.run(["requests", "--path", "/mock/credentials"] + url)
        #expect(requests.status == 0)
        #expect(
            try JSONValue.parse(requests.stdout.trimmingCharacters(in: .whitespacesAndNewlines))["requests"]?[0]?[
                "user"] == .string("alice"))
        let unknown = try MockProcess.run(["credential", "--user", "zed"] + url)
        #expect(unknown.status == 1 && unknown.stderr.contains("unknown user 'zed'"))
        let usage = try MockProcess.run(["notify", "party", "--user", "alice"] + url)
        #expect(usage.status == 64)
        #expect(mock.stop() == 0)
    }

    @Test func migrationSenderStepAgainstTheBinary() throws {
        let mock = try MockProcess()
        let secret = try secret("com.example.app")
        let token = try json(
            try form(
                mock, "/auth/token",
                [
                    ("grant_type", "client_credentials"), ("scope", "user.migration"), ("client_id", "com.example.app"),
                    ("client_secret", secret),
                ]))
        let bearer = try #require(token["access_token"]?.stringValue)
        let fields = [
            ("sub", Self.aliceSub), ("target", "ZYXWV98765"), ("client_id", "com.example.app"),
            ("client_secret", secret),
        ]
        let created = try form(mock, "/auth/usermigrationinfo", fields, bearer: bearer)
        #expect(created.status == 200, "\(created.bodyText)")
        #expect(try json(created)["transfer_sub"]?.stringValue?.split(separator: ".").count == 3)
        let unauthenticated = try form(mock, "/auth/usermigrationinfo", fields)
        #expect(try unauthenticated.status == 400 && json(unauthenticated)["error"] == .string("invalid_request"))
        #expect(mock.stop() == 0)
    }

    @Test func notificationsReachARealReceiverWithRetries() throws {
        let receiver = try Receiver(failures: 2)
        defer { receiver.stop() }
        let mock = try MockProcess()
        let group = try call(
            mock, "PATCH", "/mock/app-groups/com.example.app", ["notification_url": .string(receiver.url)])
        #expect(group.status == 200, "\(group.bodyText)")
        #expect(try call(mock, "PATCH", "/mock/notifications/settings", ["retry_delay_ms": 50]).status == 200)
        let sent = try MockProcess.run(["notify", "consent-revoked", "--user", "alice", "--url", mock.baseURL])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(receiver.waitFor(count: 3), "two failures, then a delivery")
        let payload = try #require(receiver.payloads.last)
        let claims = try verify(payload, on: mock)
        #expect(claims["aud"] == .string("com.example.app") && claims["iss"] == .string("https://appleid.apple.com"))
        let events = try JSONValue.parse(try #require(claims["events"]?.stringValue))
        #expect(events["type"] == .string("consent-revoked") && events["sub"] == .string(Self.aliceSub))
        var record: JSONValue?
        for _ in 0..<300 {
            record = try json(try call(mock, "GET", "/mock/notifications"))["notifications"]?[0]
            if record?["status"] == .string("delivered") { break }
            usleep(10_000)
        }
        #expect(
            record?["attempts"]?.arrayValue?.compactMap { $0["outcome"]?.stringValue } == [
                "http_503", "http_503", "delivered",
            ])
        // A hanging or refusing endpoint never blocks the Apple endpoints.
        #expect(try call(mock, "GET", "/auth/keys").status == 200)
        #expect(mock.stop() == 0)
    }
}

/// A small HTTP receiver for server-to-server notifications; the first `failures` requests get 503.
final class Receiver: HTTPResponder, @unchecked Sendable {
    // @unchecked: `server` is assigned once in init and only shut down in `stop()`.
    private let bodies = Mutex<[[UInt8]]>([])
    private let remaining: Mutex<Int>
    private let success: HTTPResponse
    private var server: EventLoopServer?
    private(set) var port = 0

    /// `success` answers every request after the failures (any other web server, for "not a siwa-mock").
    init(failures: Int, success: HTTPResponse = HTTPResponse(status: 200)) throws {
        remaining = Mutex(failures)
        self.success = success
        var configuration = HTTPServerConfiguration()
        configuration.listener.port = 0
        configuration.listener.eventLoops = 1
        let server = EventLoopServer(configuration: configuration, responder: self)
        try server.start()
        self.server = server
        port = server.port
    }

    var url: String { "http://127.0.0.1:\(port)/notifications" }

    func stop() { server?.shutdown() }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        bodies.withLock { $0.append(request.body) }
        let fail = remaining.withLock { count in
            defer { count = max(0, count - 1) }
            return count > 0
        }
        return fail ? HTTPResponse(status: 503) : success
    }

    var payloads: [String] {
        bodies.withLock { $0 }.compactMap { (try? JSONValue.parse($0))?["payload"]?.stringValue }
    }

    func waitFor(count: Int) -> Bool {
        for _ in 0..<1000 {
            if bodies.withLock({ $0.count }) >= count { return true }
            usleep(10_000)
        }
        return false
    }
}
