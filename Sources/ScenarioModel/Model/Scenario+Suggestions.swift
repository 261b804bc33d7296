import ScenarioFormat

extension Scenario {
    /// "unknown user 'alcie' (did you mean 'alice'?)" when one of `known` (the scenario's user ids, client
    /// ids, key ids, fault ids) is close. The one wording of an unknown name, for the loader's diagnostics
    /// and for refused runtime changes alike.
    package static func unknown(_ what: String, _ value: String, among known: [String]) -> String {
        if let suggestion = EditDistance.suggestion(for: value, among: known) {
            return "unknown \(what) '\(value)' (did you mean '\(suggestion)'?)"
        }
        return "unknown \(what) '\(value)'"
    }
}
