import Testing

@Test func placeholder_JSONTests() { #expect(Bool(true)) }
