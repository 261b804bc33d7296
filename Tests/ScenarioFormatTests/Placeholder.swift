import Testing

@Test func placeholder_ScenarioFormatTests() { #expect(Bool(true)) }
