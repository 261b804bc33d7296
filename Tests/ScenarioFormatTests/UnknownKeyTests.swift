import ScenarioFormat
import Testing

/// Unknown-key checks with "did you mean" suggestions.
struct UnknownKeyTests {
    static let allowed = ["lifetime", "team_id", "client_id", "redirect_uris"]

    @Test func suggestsTheNearestKey() throws {
        let node = try root("lifetme: 1h\nteam_id: X\nclinet_id: y\nredirect_uri: z\nzzz: 1")
        #expect(
            throws: ScenarioDiagnostics([
                ScenarioDiagnostic(
                    file: "t.yaml", line: 1, column: 1, message: "unknown key 'lifetme' (did you mean 'lifetime'?)"),
                ScenarioDiagnostic(
                    file: "t.yaml", line: 3, column: 1, message: "unknown key 'clinet_id' (did you mean 'client_id'?)"),
                ScenarioDiagnostic(
                    file: "t.yaml", line: 4, column: 1,
                    message: "unknown key 'redirect_uri' (did you mean 'redirect_uris'?)"),
                ScenarioDiagnostic(
                    file: "t.yaml", line: 5, column: 1,
                    message: "unknown key 'zzz' (expected one of 'lifetime', 'team_id', 'client_id', 'redirect_uris')"),
            ])
        ) {
            try node.checkKeys(allowed: Self.allowed)
        }
    }

    @Test func acceptsKnownKeys() throws {
        try root("lifetime: 1h\nteam_id: X").checkKeys(allowed: Self.allowed)
        #expect(try root("lifetime: 1h").mapping().unknownKeyDiagnostics(allowed: Self.allowed).isEmpty)
    }

    @Test func checkingANonMappingIsAnError() {
        #expect(
            throws: ScenarioDiagnostics([
                ScenarioDiagnostic(file: "t.yaml", line: 1, column: 1, message: "expected a mapping, found a sequence")
            ])
        ) {
            try root("- a").checkKeys(allowed: Self.allowed)
        }
    }

    @Test func doesNotSuggestDistantKeys() throws {
        let problems = try root("ab: 1").mapping().unknownKeyDiagnostics(allowed: ["xy", "lifetime"])
        #expect(problems.map(\.message) == ["unknown key 'ab' (expected one of 'xy', 'lifetime')"])
    }
}
