/// Durations in scenario files: `500ms`, `30s`, `10m`, `2h`, `1d`, and combinations in decreasing order
/// such as `1h30m` (the grammar is ``TimeSyntax/durationMilliseconds(_:sign:)``; never negative here).
extension Node {
    /// The duration as a Swift `Duration`. See ``durationMilliseconds()`` for the accepted syntax.
    package func duration() throws(ScenarioDiagnostic) -> Duration {
        .milliseconds(try durationMilliseconds())
    }

    /// The duration in milliseconds. Quoted text is accepted (for JSON).
    package func durationMilliseconds() throws(ScenarioDiagnostic) -> Int64 {
        guard case .scalar(let text, _) = kind else {
            throw diagnostic("\(TimeSyntax.expectedDuration), found \(kindDescription)")
        }
        do throws(TimeSyntax.Failure) {
            return try TimeSyntax.durationMilliseconds(text)
        } catch {
            throw diagnostic(error.message)
        }
    }
}
