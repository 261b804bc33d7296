import Testing

@testable import SIWACore

/// `FormFields.firstRepeatedName` (pairwise for small forms, a set for large ones) names the same field
/// as a set-based scan, on generated forms of 0 to 40 fields around the switch at 16.
@Suite struct FormFieldsTests {
    @Test func firstRepeatedNameMatchesASetScan() {
        let names = [
            "code", "client_id", "client_secret", "grant_type", "redirect_uri", "x", "é", "a_long_parameter_name",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...40, using: &generator)
            let pool = Int.random(in: 0..<3, using: &generator) == 0 ? names : (0..<64).map { "p\($0)" }
            let pairs = (0..<count).map { _ in (name: pool.randomElement(using: &generator)!, value: "v") }
            var seen = Set<String>()
            let expected = pairs.first { !seen.insert($0.name).inserted }?.name
            #expect(FormFields.firstRepeatedName(pairs) == expected, "\(pairs.map(\.name))")
        }
    }
}
