import Foundation
import HTTP
import JOSE
import JSON
import Testing

/// `siwa-mock check` and `serve --scenario` / `SIWA_MOCK_SCENARIO`, run through the built binary.
@Suite struct ScenarioCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let scenarios = repository + "/scenarios"

    static var exampleFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: scenarios)) ?? []).filter { $0.hasSuffix(".yaml") }
            .sorted()
            .map { scenarios + "/" + $0 }
    }

    func get(_ mock: MockProcess, _ target: String) throws -> HTTPClientResponse {
        try HTTPClient.send(HTTPClientRequest(method: "GET", target: target), host: "127.0.0.1", port: mock.port)
    }

    func publishedKIDs(_ mock: MockProcess) throws -> [String] {
        let jwks = try JSONValue.parse(try get(mock, "/auth/keys").body)
        return (jwks["keys"]?.arrayValue ?? []).compactMap { $0.objectValue?["kid"]?.stringValue }
    }

    @Test func checkAcceptsEveryExampleScenario() throws {
        let files = Self.exampleFiles
        #expect(files.count >= 8)
        let run = try MockProcess.run(["check"] + files)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == files.count)
        #expect(run.stderr.isEmpty)
    }

    @Test func checkPrintsEveryPositionedErrorAndFails() throws {
        let run = try MockProcess.run(
            [
                "check", "Tests/ScenarioCorpus/unknown-key.yaml", "scenarios/default.yaml",
                "Tests/ScenarioCorpus/wrong-type.yaml",
            ],
            directory: Self.repository)
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("scenarios/default.yaml: ok: defines 1 team (ABCDE12345), "))
        #expect(
            run.stderr == """
                Tests/ScenarioCorpus/unknown-key.yaml:3:1: unknown key 'lifetme' (did you mean 'lifetime'?)
                Tests/ScenarioCorpus/unknown-key.yaml:7:5: unknown key 'emial' (did you mean 'email'?)
                Tests/ScenarioCorpus/wrong-type.yaml:3:7: expected an integer, found the quoted string '12' (remove the quotes)
                Tests/ScenarioCorpus/wrong-type.yaml:6:21: expected true or false, found 'yes' (YAML 1.2 booleans are only true and false)

                """)
    }

    @Test func checkWithoutFilesIsAUsageError() throws {
        #expect(try MockProcess.run(["check"]).status == 64)
        let missing = try MockProcess.run(["check", "/nonexistent/scenario.yaml"])
        #expect(missing.status == 1 && missing.stderr.hasPrefix("/nonexistent/scenario.yaml: cannot read"))
    }

    @Test func serveScenarioInjectsFaults() throws {
        let mock = try MockProcess(["--scenario", Self.scenarios + "/flaky-token-endpoint.yaml"])
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/x-www-form-urlencoded")
        let request = HTTPClientRequest(
            method: "POST", target: "/auth/token", headers: headers, body: Array("grant_type=x".utf8))
        let first = try HTTPClient.send(request, host: "127.0.0.1", port: mock.port)
        #expect(first.status == 503)
        let second = try HTTPClient.send(request, host: "127.0.0.1", port: mock.port)
        #expect(second.status == 429 && second.headers["Retry-After"] == "2")
        let third = try HTTPClient.send(request, host: "127.0.0.1", port: mock.port)
        #expect(third.status == 400, "the real endpoint answers once the faults are spent")
        #expect(mock.stop() == 0)
        let log = String(decoding: mock.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("fault token-503 fired on POST /auth/token"))
    }

    @Test func scenarioFromTheEnvironment() throws {
        let mock = try MockProcess([], environment: ["SIWA_MOCK_SCENARIO": Self.scenarios + "/key-rotation.yaml"])
        #expect(try publishedKIDs(mock) == ["Aj3F8kLq2X"])
    }

    @Test func invalidScenarioStopsServeWithPositionedErrors() throws {
        let run = try MockProcess.run(
            ["serve", "--port", "0", "--scenario", "Tests/ScenarioCorpus/duplicate-user.yaml"],
            directory: Self.repository)
        #expect(run.status == 1)
        #expect(run.stderr.contains("Tests/ScenarioCorpus/duplicate-user.yaml:5:9: duplicate user id 'alice'"))
    }

    @Test func editedScenarioIsReloadedAndABrokenEditKeepsTheOldOne() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "siwa-reload-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("scenario.yaml").path
        func write(published: Bool, extra: String = "") throws {
            let text = """
                signing_keys:
                  - kid: Aj3F8kLq2X
                    pem_file: \(Self.scenarios)/keys/signing-Aj3F8kLq2X.pem
                    signs: true
                  - kid: Pb7Yt1ZcQ9
                    pem_file: \(Self.scenarios)/keys/signing-Pb7Yt1ZcQ9.pem
                    published: \(published)
                \(extra)
                """
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        }
        try write(published: false)
        let mock = try MockProcess(["--scenario", file])
        #expect(try publishedKIDs(mock) == ["Aj3F8kLq2X"])

        try write(published: true)
        #expect(
            try waitUntil { try publishedKIDs(mock) == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9"] }, "reloaded within the deadline")

        try write(published: false, extra: "lifetme: 1d")
        var log = ""
        #expect(
            try waitUntil {
                log += Self.availableText(mock.stderr.fileHandleForReading.fileDescriptor)
                return log.contains("scenario reload failed")
            })
        #expect(log.contains("scenario reloaded from \(file)"))
        #expect(
            log.contains(
                "scenario reload failed, keeping the previous scenario:\n\(file):8:1: unknown key 'lifetme' (did you mean 'lifetime'?)"
            ))
        #expect(try publishedKIDs(mock) == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9"], "nothing of the broken file was applied")
        #expect(mock.stop() == 0)
    }

    /// Whatever the pipe holds right now (non-blocking read).
    static func availableText(_ fd: Int32) -> String {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Polls `condition` every 100 ms for up to 10 s.
    func waitUntil(_ condition: () throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try condition() { return true }
            usleep(100_000)
        }
        return false
    }
}

extension ScenarioCommandTests {
    @Test func scenarioClockStartsFrozenAtItsStartTime() throws {
        let mock = try MockProcess(["--scenario", Self.scenarios + "/expired-code-and-clock.yaml"])
        let query = URLEncodedForm.encode([
            ("client_id", "com.example.web"), ("redirect_uri", "https://app.example.com/auth/apple/callback"),
            ("response_type", "code id_token"), ("response_mode", "form_post"), ("scope", "openid"),
            ("login_hint", "alice"),
        ])
        let page = try get(mock, "/auth/authorize?" + query)
        #expect(page.status == 200)
        let token = try #require(
            page.bodyText.split(separator: "\"").first { $0.hasPrefix("eyJ") && $0.split(separator: ".").count == 3 })
        let payload = try #require(Base64URL.decode(String(token.split(separator: ".")[1])))
        let claims = try JSONValue.parse(payload)
        #expect(claims["iat"] == .int(1_767_225_600), "frozen at 2026-01-01T00:00:00Z")
        #expect(claims["exp"] == .int(1_767_225_600 + 600), "lifetime: 10m")
    }
}
