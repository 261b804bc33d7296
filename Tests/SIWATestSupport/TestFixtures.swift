import HTTP
import SIWACore
import SIWAServer
import ScenarioModel

/// Fixed time and seeded randomness for reproducible tests.
package enum TestFixtures {
    /// 2023-11-14T22:13:20Z.
    package static let epoch: Int64 = 1_700_000_000

    package static func clock() -> ManualClock { ManualClock(seconds: epoch) }

    package static func random(seed: UInt64 = 42) -> SeededRandomSource { SeededRandomSource(seed: seed) }

    /// A provider over `scenario` (built-in by default) with a manual clock and seeded randomness.
    package static func provider(scenario: Scenario = .builtIn, clock: ManualClock) throws -> AppleIdentityProvider {
        try AppleIdentityProvider(scenario: scenario, clock: clock, random: random())
    }

    /// A server at `publicURL` (the one pipeline, with no admin token), its Apple endpoints, and the clock
    /// that drives them.
    package static func endpoints(
        scenario: Scenario = .builtIn, publicURL: String = "http://127.0.0.1:8080"
    ) throws -> (server: MockServer, endpoints: AppleEndpoints, clock: ManualClock, log: LogRecorder) {
        let clock = clock()
        let log = LogRecorder()
        let server = try MockServer(
            configuration: AppleEndpoints.Configuration(
                publicURL: publicURL, scenario: scenario, clock: clock, random: random(),
                log: { line in log.record(line) }, storeFactory: TestStore.factory()))
        return (server, server.apple, clock, log)
    }
}
