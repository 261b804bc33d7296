import Foundation
import HTTP
import JSON
import Testing

/// The mock's files cannot be turned against it: a scenario sent over HTTP reads no file, files are
/// read only when regular (a FIFO never blocks), and state directories others can write are refused.
@Suite struct FileAccessEndToEndTests {
    static let keys = MigrationEndToEndTests.keys

    /// `path`'s PEM, each line indented by `spaces` (for a `pem: |` block).
    static func indentedPEM(_ path: String, spaces: Int) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let pad = String(repeating: " ", count: spaces)
        return text.split(separator: "\n").map { pad + $0 }.joined(separator: "\n")
    }

    /// A new empty directory (mode 0700), removed when the value is released.
    static func makeDirectory() throws -> TemporaryStateDirectory {
        let directory = try TemporaryStateDirectory()
        guard mkdir(directory.path, 0o700) == 0 else { throw MockProcessError("cannot create \(directory.path)") }
        return directory
    }

    func put(_ mock: MockProcess, _ text: String) throws -> HTTPClientResponse {
        try HTTPClient.send(
            HTTPClientRequest(method: "PUT", target: "/mock/scenario", body: Array(text.utf8)), host: "127.0.0.1",
            port: mock.port, timeoutMilliseconds: 5000)
    }

    @Test func aScenarioSentOverHTTPReadsNoFileWhateverItNames() throws {
        let directory = try Self.makeDirectory()
        let fifo = directory.path + "/key.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let mock = try MockProcess()
        let jwksBefore = try HTTPClient.send(
            HTTPClientRequest(target: "/auth/keys"), host: "127.0.0.1", port: mock.port)
        var answers: [[String]] = []
        // An RSA key that exists (it would become the published signing key), a missing file, a path
        // out of the working directory, and a FIFO (it would block the event loop that opened it).
        for path in ["\(Self.keys)/signing-Pb7Yt1ZcQ9.pem", "/nonexistent/key.pem", "../../../etc/shadow", fifo] {
            let started = Date()
            let response = try put(mock, "signing_keys:\n  - kid: HOSTKEY\n    pem_file: \(path)\n    signs: true\n")
            #expect(Date().timeIntervalSince(started) < 2, "\(path) answered at once")
            #expect(response.status == 400, "\(response.bodyText)")
            answers.append(try JSONValue.parse(response.body)["errors"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        }
        // The same answer for every path: nothing tells whether a file exists.
        #expect(Set(answers).count == 1, "\(answers)")
        #expect(
            answers.first?.contains(
                "scenario:3:15: 'pem_file' is not read in a scenario sent over HTTP (it would expose the "
                    + "server's files); give the key inline with 'pem: |', or load the file with --scenario") == true,
            "\(answers)")
        let jwksAfter = try HTTPClient.send(HTTPClientRequest(target: "/auth/keys"), host: "127.0.0.1", port: mock.port)
        #expect(jwksAfter.body == jwksBefore.body, "the published keys did not change")
        let health = try HTTPClient.send(HTTPClientRequest(target: "/mock/health"), host: "127.0.0.1", port: mock.port)
        #expect(health.status == 200)
        #expect(mock.stop() == 0, "SIGTERM still ends it promptly")
    }

    @Test func scenarioAndPEMFilesFromTheCommandLineMustBeRegularFiles() throws {
        let directory = try Self.makeDirectory()
        let fifo = directory.path + "/scenario.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let scenario = directory.path + "/fifo-key.yaml"
        try "signing_keys:\n  - kid: K1\n    pem_file: scenario.fifo\n    signs: true\n".write(
            toFile: scenario, atomically: false, encoding: .utf8)
        let started = Date()
        let direct = try MockProcess.run(["serve", "--port", "0", "--scenario", fifo], timeoutSeconds: 10)
        #expect(direct.status == 1)
        #expect(direct.stderr.contains("cannot read \(fifo): a FIFO, not a regular file"), "\(direct.stderr)")
        let named = try MockProcess.run(["check", scenario], timeoutSeconds: 10)
        #expect(named.status == 1)
        #expect(
            named.stderr.contains("\(scenario):3:15: cannot read PEM file '\(fifo)': a FIFO, not a regular file"),
            "\(named.stderr)")
        #expect(Date().timeIntervalSince(started) < 8, "no read blocked on the FIFO")
    }

    @Test func stateDirectoriesOthersCanWriteAreRefused() throws {
        let directory = try Self.makeDirectory()
        let open = directory.path + "/open"
        #expect(mkdir(open, 0o700) == 0 && chmod(open, 0o777) == 0)
        let keys = try MockProcess.run(["serve", "--port", "0", "--state-dir", open], timeoutSeconds: 10)
        #expect(keys.status == 1)
        #expect(
            keys.stderr.contains(
                "state directory \(open) is writable by group and others (mode 0777): anyone with access could plant "
                    + "keys there. Fix it with `chmod go-w \(open)`"), "\(keys.stderr)")
        let tls = try MockProcess.run(["serve", "--port", "0", "--tls", "--tls-port", "0", "--tls-dir", open])
        #expect(tls.status == 1 && tls.stderr.contains("TLS directory \(open) is writable"), "\(tls.stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: open)) == [], "nothing was written there")
    }
}
