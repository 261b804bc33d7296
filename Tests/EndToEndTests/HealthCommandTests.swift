import Foundation
import Testing

/// `siwa-mock health`: the container HEALTHCHECK.
@Suite struct HealthCommandTests {
    @Test func exitsZeroAgainstARunningMock() throws {
        let mock = try MockProcess()
        let run = try MockProcess.run(["health", "--url", mock.baseURL])
        #expect(run.status == 0)
        #expect(run.stdout == "healthy: \(mock.baseURL)\n")
        // Without --url it follows SIWA_MOCK_PORT, like `serve` does in a container.
        let byPort = try MockProcess.run(["health"], environment: ["SIWA_MOCK_PORT": String(mock.port)])
        #expect(byPort.status == 0)
        #expect(mock.stop() == 0)
    }

    @Test func failsClearlyWhenNothingListens() throws {
        let mock = try MockProcess()
        let url = mock.baseURL
        #expect(mock.stop() == 0)  // the port is free again
        let run = try MockProcess.run(["health", "--url", url, "--timeout", "2000"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("unhealthy: \(url)/mock/health"))
        #expect(run.stderr.contains("refused"))
    }

    @Test func failsWhenTheServerIsNotAMock() throws {
        // Any HTTP server without /mock/health: a mock's HTTPS port answers plain HTTP with 400.
        let directory = NSTemporaryDirectory() + "siwa-health-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let mock = try MockProcess(["--tls", "--tls-port", "0", "--tls-dir", directory])
        let line = try ReadyLine.read(mock.stdout.fileHandleForReading)
        let tlsURL = "http://" + line.dropFirst("siwa-mock listening on https://".count)
        let run = try MockProcess.run(["health", "--url", tlsURL])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(tlsURL): not a siwa-mock (got"), "\(run.stderr)")
        #expect(run.stderr.contains("400 from /mock/health)"), "\(run.stderr)")
        #expect(mock.stop() == 0)
        // A web server already on the port (the quick start with 8080 taken): its 404 is not "answered 404".
        let other = try StaticServer(status: "404 Not Found", body: "<html>Not Found</html>")
        defer { other.stop() }
        let busy = try MockProcess.run(["health", "--url", "http://127.0.0.1:\(other.port)", "--wait", "2s"])
        #expect(busy.status == 1)
        #expect(
            busy.stderr.contains("http://127.0.0.1:\(other.port): not a siwa-mock (got no Content-Type 404"),
            "\(busy.stderr)")
    }

    @Test func usageErrors() throws {
        let https = try MockProcess.run(["health", "--url", "https://127.0.0.1:8443"])
        #expect(https.status == 64)
        #expect(https.stderr.contains("--url must be an http:// URL"))
        let timeout = try MockProcess.run(["health", "--timeout", "0"])
        #expect(timeout.status == 64)
    }
}
