import Testing

@Test func placeholder_JOSETests() { #expect(Bool(true)) }
