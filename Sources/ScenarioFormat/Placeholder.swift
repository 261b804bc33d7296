// Placeholder until the ScenarioFormat work lands.
