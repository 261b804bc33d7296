import Testing

@Test func placeholder_SIWACoreTests() { #expect(Bool(true)) }
