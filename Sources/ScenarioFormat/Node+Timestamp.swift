/// RFC 3339 timestamps in scenario files: `2026-01-02T03:04:05Z`, `2026-01-02T03:04:05.250+02:00`
/// (the grammar is ``TimeSyntax/timestamp(_:)``).
extension Node {
    /// Reads an RFC 3339 `date-time`. Quoted text is accepted.
    package func timestamp() throws(ScenarioDiagnostic) -> ScenarioTimestamp {
        guard case .scalar(let text, _) = kind else {
            throw diagnostic("\(TimeSyntax.expectedTimestamp), found \(kindDescription)")
        }
        do throws(TimeSyntax.Failure) {
            return try TimeSyntax.timestamp(text)
        } catch {
            throw diagnostic(error.message)
        }
    }
}
