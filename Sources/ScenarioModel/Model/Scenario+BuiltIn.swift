extension Scenario {
    /// The scenario served by `siwa-mock` with no file: `scenarios/default.yaml`, embedded in the binary
    /// (`ScenarioLoader.defaultScenarioText`), loaded once on first use. Its values are the ones in
    /// README's "Pointing a backend at it" table; `DefaultScenarioTests` pins them.
    package static let builtIn: Scenario = {
        do {
            return try ScenarioLoader.loadDefaultScenario()
        } catch {
            // Unreachable in a tested build: DefaultScenarioTests loads the same embedded text.
            fatalError("the embedded scenarios/default.yaml does not load: \(error)")
        }
    }()
}
