import Foundation
import HTTP
import JOSE
import JSON
import Testing

/// `siwa-mock serve` as CI runs it: the binary on a free port, driven over HTTP.
@Suite struct ServeTests {
    static let redirect = "https://app.example.com/auth/apple/callback"

    func get(_ mock: MockProcess, _ target: String) throws -> HTTPClientResponse {
        try HTTPClient.send(HTTPClientRequest(method: "GET", target: target), host: "127.0.0.1", port: mock.port)
    }

    func post(_ mock: MockProcess, _ target: String, form: [(String, String)]) throws -> HTTPClientResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/x-www-form-urlencoded")
        let body = Array(URLEncodedForm.encode(form).utf8)
        return try HTTPClient.send(
            HTTPClientRequest(method: "POST", target: target, headers: headers, body: body), host: "127.0.0.1",
            port: mock.port)
    }

    func clientSecret(clientID: String = "com.example.web") throws -> String {
        let run = try MockProcess.run([
            "client-secret", "--team-id", "ABCDE12345", "--client-id", clientID, "--key-id", "KEY1234567", "--key",
            CLICommandTests.testKey,
        ])
        try #require(run.status == 0)
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func readyLineHealthAndCleanShutdown() throws {
        let mock = try MockProcess()
        #expect(mock.baseURL == "http://127.0.0.1:\(mock.port)")
        let health = try get(mock, "/mock/health")
        #expect(health.status == 200)
        #expect(health.bodyText == #"{"status":"ok"}"#)
        let discovery = try JSONValue.parse(try get(mock, "/.well-known/openid-configuration").body)
        #expect(discovery["issuer"] == .string("https://appleid.apple.com"))
        #expect(discovery["token_endpoint"] == .string("\(mock.baseURL)/auth/token"))
        #expect(mock.stop() == 0)
        let log = String(decoding: mock.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(!log.contains("GET /mock/health"), "health probes log at debug (a container polls them)")
        #expect(log.contains("GET /.well-known/openid-configuration 200"))
    }

    @Test func healthProbesAreLoggedAtDebugLevel() throws {
        let mock = try MockProcess(["--log-level", "debug"])
        #expect(try get(mock, "/mock/health").status == 200)
        #expect(mock.stop() == 0)
        let log = String(decoding: mock.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("GET /mock/health 200"))
    }

    @Test func sigintAlsoExitsZero() throws {
        let mock = try MockProcess()
        #expect(mock.stop(signal: SIGINT) == 0)
    }

    @Test func publicURLFlagAndEnvironment() throws {
        let mock = try MockProcess([], environment: ["SIWA_MOCK_PUBLIC_URL": "https://mock.test:9443"])
        let discovery = try JSONValue.parse(try get(mock, "/.well-known/openid-configuration").body)
        #expect(discovery["jwks_uri"] == .string("https://mock.test:9443/auth/keys"))
    }

    @Test func portInUseIsAClearRuntimeError() throws {
        let mock = try MockProcess()
        let second = try MockProcess.run(["serve", "--port", String(mock.port)])
        #expect(second.status == 1)
        #expect(second.stderr.contains("cannot listen on 127.0.0.1:\(mock.port)"))
    }

    /// The README walkthrough: authorize with login_hint → code → token → verify the id_token with /auth/keys.
    @Test func headlessCodeFlowYieldsAVerifiableIDToken() throws {
        let mock = try MockProcess()
        let authorize = try get(
            mock,
            "/auth/authorize?client_id=com.example.web&redirect_uri=\(URLEncodedForm.encodeComponent(Self.redirect))"
                + "&response_type=code&state=s1&login_hint=alice")
        #expect(authorize.status == 302)
        let location = try #require(authorize.headers["Location"])
        #expect(location.hasPrefix(Self.redirect + "?code="))
        let query = try URLEncodedForm.decode(Array(location.split(separator: "?", maxSplits: 1)[1].utf8))
        let code = try #require(query.first { $0.name == "code" }?.value)
        #expect(query.first { $0.name == "state" }?.value == "s1")

        let secret = try clientSecret()
        let form = [
            ("grant_type", "authorization_code"), ("client_id", "com.example.web"), ("client_secret", secret),
            ("code", code), ("redirect_uri", Self.redirect),
        ]
        let token = try post(mock, "/auth/token", form: form)
        #expect(token.status == 200, "\(token.bodyText)")
        #expect(token.headers["Cache-Control"] == "no-store")
        let body = try JSONValue.parse(token.body)
        let idTokenText = try #require(body["id_token"]?.stringValue)
        let idToken = try JWS(compact: idTokenText)
        let jwks = try JWKS(json: try JSONValue.parse(try get(mock, "/auth/keys").body))
        let kid = try #require(idToken.keyID)
        let key = try RSAPublicKey(jwk: try #require(jwks.key(withID: kid)))
        #expect(idToken.isSigned(by: key))
        #expect(idToken.payload["sub"] == .string("001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111"))
        #expect(idToken.payload["aud"] == .string("com.example.web"))

        let verify = try MockProcess.run([
            "verify", "--url", mock.baseURL, "--audience", "com.example.web", idTokenText,
        ])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout.contains("valid: signature and claims check out"))
        let wrongAudience = try MockProcess.run([
            "verify", "--url", mock.baseURL, "--audience", "com.example.app", idTokenText,
        ])
        #expect(wrongAudience.status == 1)
        #expect(wrongAudience.stderr.contains("invalid: aud is not com.example.app"))
        var tampered = Array(idTokenText.utf8)
        tampered[tampered.count - 5] =
            tampered[tampered.count - 5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let forged = try MockProcess.run(["verify", "--url", mock.baseURL, String(decoding: tampered, as: UTF8.self)])
        #expect(forged.status == 1)
        #expect(forged.stderr.contains("signature does not verify"))

        let reuse = try post(mock, "/auth/token", form: form)
        #expect(reuse.status == 400)
        #expect(reuse.bodyText == #"{"error":"invalid_grant","error_description":"The code has already been used."}"#)
    }

    @Test func stateDirectoryKeepsTheJWKSAcrossRestarts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try MockProcess(["--state-dir", directory.path])
        let jwks1 = try get(first, "/auth/keys").bodyText
        #expect(first.stop() == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files == ["signing-Aj3F8kLq2X.pem", "signing-Pb7Yt1ZcQ9.pem", "signing-Tq8Nv3WcLm.pem"])
        for file in files {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: directory.appendingPathComponent(file).path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
        let second = try MockProcess(["--state-dir", directory.path])
        #expect(try get(second, "/auth/keys").bodyText == jwks1)
        // Keys in a state directory are this installation's own, not the published test keys.
        let builtIn = try MockProcess()
        #expect(try get(builtIn, "/auth/keys").bodyText != jwks1)
    }

    @Test func corruptStateDirectoryKeyIsAClearError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "not a key".write(
            to: directory.appendingPathComponent("signing-Aj3F8kLq2X.pem"), atomically: true, encoding: .utf8)
        let run = try MockProcess.run(["serve", "--port", "0", "--state-dir", directory.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("signing-Aj3F8kLq2X.pem"))
    }
}
