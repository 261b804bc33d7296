import Background
import Glibc
import SIWACore
import SIWAServer
import Testing

@testable import siwa_mock

/// `serve --scenario FILE` reloads the file when it changes (issue #11 items 9 and 10b).
@Suite struct ScenarioWatcherTests {
    /// scenarios/default.yaml with its key paths made absolute, so a copy loads from anywhere.
    static let text: String = {
        let scenarios = String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/")) + "/scenarios"
        let original = (try? FileSystem.readText("/" + scenarios + "/default.yaml")) ?? ""
        return original.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.replacing("pem_file: keys/", with: "pem_file: /\(scenarios)/keys/") }
            .joined(separator: "\n")
    }()

    let directory: String
    let path: String
    let clock = ManualSchedulerClock()
    let scheduler: BackgroundScheduler

    init() throws {
        var template = Array("/tmp/siwa-watcher-XXXXXX".utf8CString)
        directory = try #require(
            template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map {
                String(cString: $0)
            })
        path = directory + "/scenario.yaml"
        scheduler = BackgroundScheduler(clock: clock)
    }

    func write(_ text: String) throws {
        unlink(path)
        try FileSystem.write(text, to: path, exclusive: true)
    }

    /// Loads the file as `serve` does (stamp first) and starts watching it.
    func serve() throws -> MockServer {
        let stamp = ScenarioFile.stamp(path)
        let scenario = try ScenarioFile.load(path)
        let server = try MockServer(configuration: .init(publicURL: "http://127.0.0.1:8080", scenario: scenario))
        let quiet = RequestLog(settings: LogSettings(minimumLevel: .error))
        ScenarioWatcher(path: path, server: server, log: quiet, loadedStamp: stamp).start(on: scheduler)
        return server
    }

    func aliceEmail(_ server: MockServer) -> String? { server.apple.provider.scenario.user(id: "alice")?.email }

    func tick() -> Bool {
        clock.advance(milliseconds: 1000)
        return scheduler.waitUntilIdle(timeoutMilliseconds: 3000)
    }

    /// A missing scenario file names the file beside it and, from the environment, the variable.
    @Test func missingFileSuggestsTheOneBesideItAndNamesTheVariable() throws {
        defer { cleanUp() }
        try write(Self.text)
        let typo = directory + "/scenario.yml"
        #expect(
            ScenarioFile.missingFileHints(typo, source: "SIWA_MOCK_SCENARIO") == [
                "  did you mean '\(path)'?", "  (the path came from the environment variable SIWA_MOCK_SCENARIO)",
            ])
        #expect(ScenarioFile.missingFileHints(directory + "/other-thing.json", source: "--scenario").isEmpty)
        #expect(ScenarioFile.missingFileHints(path, source: "SIWA_MOCK_SCENARIO").isEmpty, "the file exists")
    }

    @Test func editRightAfterStartupIsReloaded() throws {
        defer { cleanUp() }
        try write(Self.text)
        let server = try serve()
        // Edited before the watcher's first look: the stamp it compares with is the one taken at load.
        try write(Self.text.replacing("alice@example.com", with: "alice@changed.example"))
        #expect(tick())
        #expect(aliceEmail(server) == "alice@changed.example")
    }

    @Test func fifoInPlaceOfTheFileDoesNotBlockTheWatcher() throws {
        defer { cleanUp() }
        try write(Self.text)
        let server = try serve()
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        #expect(tick(), "the watcher never opens a FIFO")
        #expect(aliceEmail(server) == "alice@example.com")
        #expect(throws: RuntimeError.self) { try FileSystem.read(path, limit: 1024) }
        // Still watching: a regular file put back is loaded.
        try write(Self.text.replacing("alice@example.com", with: "alice@after.example"))
        #expect(tick())
        #expect(aliceEmail(server) == "alice@after.example")
    }

    func cleanUp() {
        scheduler.stop()
        unlink(path)
        rmdir(directory)
    }
}
