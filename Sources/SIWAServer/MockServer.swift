import HTTPServer
import SIWACore

/// The whole HTTP surface: `/mock/…` to the control API, everything else to Apple's endpoints.
/// Both share one `AppleIdentityProvider`, so control calls change what the Apple endpoints answer.
/// Apple's endpoints run behind the scenario's fault rules and timeline (`FaultInjector`).
public struct MockServer: HTTPResponder {
    public let apple: AppleEndpoints
    public let control: ControlEndpoints
    /// The scenario's fault rules and counters (`/mock/faults`).
    public let faults: FaultEngine
    /// The scenario's timeline progress.
    public let timeline: TimelineEngine
    let injector: FaultInjector
    let faultsEndpoints: FaultsEndpoints

    public init(configuration: AppleEndpoints.Configuration) throws(ScenarioKeyError) {
        let apple = try AppleEndpoints(configuration: configuration)
        self.apple = apple
        self.control = ControlEndpoints(provider: apple.provider)
        let scenario = configuration.scenario
        let start = apple.provider.clock.nowMilliseconds
        self.faults = FaultEngine(rules: scenario.faults, seed: scenario.seed, startMilliseconds: start)
        self.timeline = TimelineEngine(entries: scenario.timeline, startMilliseconds: start)
        self.injector = FaultInjector(inner: apple, faults: faults, timeline: timeline, log: configuration.log)
        self.faultsEndpoints = FaultsEndpoints(faults: faults, provider: apple.provider)
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        if request.path == "/mock/faults" || request.path.hasPrefix("/mock/faults/") {
            return faultsEndpoints.respond(to: request)
        }
        if request.path.hasPrefix("/mock/") { return control.respond(to: request) }
        return injector.respond(to: request)
    }

    /// Swaps in a new scenario as one step (hot reload): provider state, fault rules and timeline.
    /// On error nothing changes.
    public func replaceScenario(_ scenario: Scenario) throws(RuntimeError) {
        try apple.provider.replaceScenario(scenario)
        if let clock = apple.provider.controllableClock {
            if let start = scenario.clock.startMilliseconds { clock.set(milliseconds: start) }
            clock.setFrozen(scenario.clock.frozen)
        }
        let start = apple.provider.clock.nowMilliseconds
        faults.replace(rules: scenario.faults, seed: scenario.seed, startMilliseconds: start)
        timeline.replace(entries: scenario.timeline, startMilliseconds: start)
    }
}
