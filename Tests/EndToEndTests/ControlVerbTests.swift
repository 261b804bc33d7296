import Foundation
import HTTP
import JSON
import Testing

/// The verbs for shell-based CI (`reset`, `users`, `keys`, `faults`, `clock advance -2d`, `health --wait`)
/// and the CLI's rough edges (issue #12 item 7), against the built binary.
@Suite struct ControlVerbTests {
    func run(_ arguments: [String], _ mock: MockProcess) throws -> (status: Int32, stdout: String, stderr: String) {
        try MockProcess.run(arguments + ["--url", mock.baseURL])
    }

    func json(_ text: String) throws -> JSONValue {
        try JSONValue.parse(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func base(_ server: Receiver) -> String { "http://127.0.0.1:\(server.port)" }

    func status(_ mock: MockProcess, _ target: String) throws -> Int {
        try HTTPClient.send(HTTPClientRequest(target: target), host: "127.0.0.1", port: mock.port).status
    }

    @Test func usersVerbsListGetAddRevokeDeleteAndReset() throws {
        let mock = try MockProcess()
        let listed = try run(["users"], mock)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(try json(listed.stdout)["users"]?.arrayValue?.contains { $0["id"] == .string("alice") } == true)
        let added = try run(
            ["users", "add", "--id", "erin", "--email", "erin@example.com", "--first-name", "Erin"], mock)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try json(try run(["users", "get", "erin"], mock).stdout)["email"] == .string("erin@example.com"))
        let revoked = try run(["users", "revoke", "alice"], mock)
        #expect(try json(revoked.stdout)["credential_state"] == .string("revoked"), "\(revoked.stderr)")
        #expect(try run(["users", "delete", "erin"], mock).status == 0)
        let gone = try run(["users", "get", "erin"], mock)
        #expect(gone.status == 1 && gone.stderr.contains("404"))
        let reset = try run(["reset"], mock)
        #expect(reset.status == 0 && reset.stdout.contains("reset"), "\(reset.stderr)")
        #expect(try json(try run(["users", "get", "alice"], mock).stdout)["credential_state"] == .string("authorized"))
        #expect(mock.stop() == 0)
    }

    @Test func keysRotateAndFaultsAddRemove() throws {
        let mock = try MockProcess()
        let rotated = try run(["keys", "rotate", "--kid", "CIKEY1"], mock)
        #expect(rotated.status == 0, "\(rotated.stderr)")
        #expect(try json(rotated.stdout)["signing_kid"] == .string("CIKEY1"))
        #expect(try json(try run(["keys"], mock).stdout)["signing_kid"] == .string("CIKEY1"))

        let rule = #"{"id": "keys-down", "match": "GET /auth/keys", "status": 503}"#
        let added = try run(["faults", "add", rule], mock)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try status(mock, "/auth/keys") == 503)
        #expect(try json(try run(["faults"], mock).stdout)["faults"]?[0]?["fired"] == .int(1))
        let removed = try run(["faults", "remove", "keys-down"], mock)
        #expect(removed.status == 0 && removed.stdout.isEmpty, "\(removed.stderr)")
        #expect(try status(mock, "/auth/keys") == 200)
        let missing = try run(["faults", "remove", "keys-down"], mock)
        #expect(missing.status == 1 && missing.stderr.contains("404"))
        #expect(mock.stop() == 0)
    }

    @Test func clockGoesBackWithANegativeDurationAndRefusesBareNumbers() throws {
        let mock = try MockProcess()
        let before = try json(try run(["clock"], mock).stdout)["epoch_seconds"]?.intValue ?? 0
        let back = try run(["clock", "advance", "-2d"], mock)
        #expect(back.status == 0, "\(back.stderr)")
        let after = try json(back.stdout)["epoch_seconds"]?.intValue ?? 0
        #expect(before - after >= 172_800 - 5 && before - after <= 172_800)
        let bare = try run(["clock", "advance", "90"], mock)
        #expect(bare.status == 64)
        #expect(bare.stderr.contains("found '90' (add a unit)"))
        let lowercase = try run(["clock", "set", "2030-01-01t00:00:00z"], mock)
        #expect(lowercase.status == 64 && lowercase.stderr.contains("uppercase"))
        #expect(mock.stop() == 0)
    }

    @Test func usageErrorsOfTheNewVerbsExit64WithAHint() throws {
        for arguments in [
            ["users", "frobnicate"], ["users", "get"], ["faults", "add"], ["keys", "retire"],
            ["users", "list", "--email", "x@example.com"], ["health", "--wait", "10"], ["reset", "now"],
        ] {
            let result = try MockProcess.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains("See 'siwa-mock \(arguments[0]) --help'"), "\(arguments): \(result.stderr)")
        }
    }

    @Test func aURLThatIsNotAMockSaysSo() throws {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/html; charset=utf-8")
        let html = HTTPResponse(status: 200, headers: headers, body: Array("<html><body>It works</body></html>".utf8))
        let server = try Receiver(failures: 0, success: html)  // any web server that is not a siwa-mock
        defer { server.stop() }
        let expected = "Error: \(base(server)): not a siwa-mock (got text/html 200 from /mock/health)\n"
        let users = try MockProcess.run(["users", "--url", base(server)])
        #expect(users.status == 1)
        #expect(users.stderr == expected)
        #expect(!users.stdout.contains("<html>") && !users.stderr.contains("<html>"))
        let health = try MockProcess.run(["health", "--url", base(server)])
        #expect(health.status == 1)
        #expect(health.stderr == "unhealthy: \(base(server)): not a siwa-mock (got text/html 200 from /mock/health)\n")
    }

    @Test func healthWaitsForTheMockToStart() throws {
        let first = try MockProcess()
        let port = first.port
        #expect(first.stop() == 0)  // the port is free again
        let waiter = Process()
        waiter.executableURL = URL(fileURLWithPath: MockProcess.binaryPath)
        waiter.arguments = ["health", "--wait", "10s", "--url", "http://127.0.0.1:\(port)"]
        let out = Pipe()
        waiter.standardOutput = out
        waiter.standardError = Pipe()
        try waiter.run()
        usleep(400_000)
        #expect(waiter.isRunning, "still waiting while nothing listens")
        let mock = try MockProcess(port: port)
        waiter.waitUntilExit()
        #expect(waiter.terminationStatus == 0)
        #expect(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).hasPrefix("healthy"))
        #expect(mock.stop() == 0)
    }

    @Test func healthWaitGivesUpWithAMessage() throws {
        let mock = try MockProcess()
        let url = mock.baseURL
        #expect(mock.stop() == 0)
        let started = Date()
        let run = try MockProcess.run(["health", "--wait", "500ms", "--url", url])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("unhealthy after waiting "))
        #expect(run.stderr.contains("refused"))
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func portInUseIsSaidOnceWithTheWayOut() throws {
        let mock = try MockProcess()
        let clash = try MockProcess.run(["serve", "--host", "127.0.0.1", "--port", String(mock.port)])
        #expect(clash.status == 1)
        #expect(clash.stderr.components(separatedBy: "cannot listen on").count == 2, "\(clash.stderr)")
        #expect(clash.stderr.components(separatedBy: "address already in use").count == 2, "\(clash.stderr)")
        #expect(clash.stderr.contains("--port <port> or SIWA_MOCK_PORT (0 picks a free one"))
        #expect(clash.stderr.split(separator: "\n").count == 1)
        #expect(mock.stop() == 0)
    }
}
