import Testing

@Test func placeholder_SIWAServerTests() { #expect(Bool(true)) }
