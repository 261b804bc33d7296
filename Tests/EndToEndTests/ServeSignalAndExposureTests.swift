import Foundation
import HTTP
import JSON
import Testing

/// `serve` and its surroundings: SIGHUP never kills it (it reloads --scenario, or is logged and
/// ignored), and it refuses to open the control API to the network without an admin token.
@Suite struct ServeSignalAndExposureTests {
    func health(_ mock: MockProcess) throws -> Int {
        try HTTPClient.send(HTTPClientRequest(target: "/mock/health"), host: "127.0.0.1", port: mock.port).status
    }

    /// stderr collected until it contains `text` (10 s at most).
    func waitForLog(_ mock: MockProcess, _ text: String, into log: inout String) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            log += ScenarioCommandTests.availableText(mock.stderr.fileHandleForReading.fileDescriptor)
            if log.contains(text) { return true }
            usleep(50_000)
        }
        return false
    }

    @Test func sighupWithoutAScenarioIsLoggedAndIgnored() throws {
        let mock = try MockProcess()
        #expect(kill(mock.process.processIdentifier, SIGHUP) == 0)
        var log = ""
        #expect(waitForLog(mock, "received SIGHUP: no --scenario to reload, ignoring it", into: &log), "\(log)")
        #expect(mock.process.isRunning)
        #expect(try health(mock) == 200)
        #expect(mock.stop() == 0, "still drains and exits 0 on SIGTERM")
    }

    @Test func sighupReloadsTheScenarioFile() throws {
        let directory = try FileAccessEndToEndTests.makeDirectory()
        let file = directory.path + "/scenario.yaml"
        func write(_ name: String) throws {
            try "users: [{id: \(name), email: \(name)@example.com}]\n".write(
                toFile: file, atomically: false, encoding: .utf8)
        }
        try write("erin")
        var original = stat()
        stat(file, &original)
        let mock = try MockProcess(["--scenario", file])
        // Same size, same inode, same modification time: the watcher cannot see this edit; SIGHUP must.
        try write("fred")
        var times = [original.st_atim, original.st_mtim]
        utimensat(AT_FDCWD, file, &times, 0)
        #expect(kill(mock.process.processIdentifier, SIGHUP) == 0)
        var log = ""
        #expect(waitForLog(mock, "scenario reloaded from \(file)", into: &log), "\(log)")
        #expect(log.contains("received SIGHUP: reloading \(file)"))
        let fred = try HTTPClient.send(
            HTTPClientRequest(target: "/mock/users/fred"), host: "127.0.0.1", port: mock.port)
        #expect(fred.status == 200, "\(fred.bodyText)")
        #expect(mock.stop() == 0)
    }

    @Test(arguments: [(["--host", "0.0.0.0"], [:]), ([], ["SIWA_MOCK_HOST": "::"])])
    func aReachableControlAPIWithoutATokenIsRefused(_ arguments: [String], _ environment: [String: String]) throws {
        let run = try MockProcess.run(
            ["serve", "--port", "0"] + arguments, environment: environment, timeoutSeconds: 10)
        #expect(run.status == 64, "\(run.stderr)")
        let source = arguments.isEmpty ? "SIWA_MOCK_HOST ::" : "--host 0.0.0.0"
        #expect(
            run.stderr.contains("\(source) is not a loopback address and no --admin-token is set"), "\(run.stderr)")
        #expect(run.stderr.contains("--insecure-control-api (SIWA_MOCK_INSECURE_CONTROL_API=true)"))
        #expect(run.stdout.isEmpty, "never listened")
    }
}
