import EventLoop
import HTTP
import Testing

@testable import siwa_mock

/// `serve --max-connections/--header-timeout/--idle-timeout` (used by Tests/Adversarial).
@Suite struct LimitOptionsTests {
    let parser = ArgumentParser(options: LimitOptions.specs, acceptsPositionals: false)

    @Test func absentOptionsKeepTheDocumentedDefaults() throws {
        let options = try LimitOptions(try parser.parse([], environment: [:]))
        var configuration = HTTPServerConfiguration()
        options.apply(to: &configuration)
        #expect(configuration.listener.maxConnections == 10_000)
        #expect(configuration.headerTimeoutMilliseconds == 10_000)
        #expect(configuration.bodyTimeoutMilliseconds == 10_000)
        #expect(configuration.listener.handshakeTimeoutMilliseconds == 10_000)
        #expect(configuration.listener.idleTimeoutMilliseconds == 60_000)
    }

    @Test func givenOptionsAndEnvironmentOverrideTheConfiguration() throws {
        let parsed = try parser.parse(
            ["--max-connections", "200", "--header-timeout=1500"], environment: ["SIWA_MOCK_IDLE_TIMEOUT": "4000"])
        var configuration = HTTPServerConfiguration()
        try LimitOptions(parsed).apply(to: &configuration)
        #expect(configuration.listener.maxConnections == 200)
        #expect(configuration.headerTimeoutMilliseconds == 1500)
        #expect(configuration.bodyTimeoutMilliseconds == 1500)
        #expect(configuration.listener.handshakeTimeoutMilliseconds == 1500)
        #expect(configuration.listener.idleTimeoutMilliseconds == 4000)
    }

    @Test(arguments: [["--max-connections", "0"], ["--header-timeout", "0"], ["--idle-timeout", "soon"]])
    func outOfRangeValuesAreUsageErrors(arguments: [String]) throws {
        let parsed = try parser.parse(arguments, environment: [:])
        #expect(throws: UsageError.self) { try LimitOptions(parsed) }
    }

    /// The SMTP listener takes the same cap and timeouts on its own listener configuration.
    @Test func theListenerConfigurationGetsTheCapAndTimeoutsToo() throws {
        let parsed = try parser.parse(
            ["--max-connections", "7", "--header-timeout=900", "--idle-timeout=3000"], environment: [:])
        var configuration = ListenerConfiguration()
        try LimitOptions(parsed).apply(to: &configuration)
        #expect(configuration.maxConnections == 7)
        #expect(configuration.handshakeTimeoutMilliseconds == 900)
        #expect(configuration.idleTimeoutMilliseconds == 3000)
    }
}
