import HTTP

/// `siwa-mock faults [list | add RULE | remove ID | clear | reset [ID]]` against a running mock: turn
/// fault rules on and off from a shell script (`/mock/faults`).
struct FaultsCommand: ControlVerb {
    static let name = "faults"
    static let abstract = "List, add (enable), remove (disable) or reset a running mock's fault rules."
    static let discussion: String? = """
        RULE is one fault in the scenario file's syntax, as JSON or YAML text (docs/scenarios.md).
        EXAMPLES:
          siwa-mock faults                  # list rules with their counters
          siwa-mock faults add '{"id": "down", "match": "POST /auth/token", "status": 503}'
          siwa-mock faults remove down      # that rule no longer fires
          siwa-mock faults clear            # remove every rule
          siwa-mock faults reset [down]     # counters back to zero
        """
    static let positionalsSynopsis: String? = "[list | add <rule> | remove <id> | clear | reset [<id>]]"

    var client: ControlClient
    var call: ControlClient.Call

    static func call(_ arguments: ParsedArguments) throws(UsageError) -> ControlClient.Call {
        let words = arguments.positionals
        let action = words.first ?? "list"
        func rule(_ word: String) -> String { "/mock/faults/" + URLEncodedForm.encodeComponent(word) }
        switch (action, words.count) {
        case ("list", ...1): return ControlClient.Call("GET", "/mock/faults")
        case ("add", 2): return ControlClient.Call("POST", "/mock/faults", body: Array(words[1].utf8))
        case ("remove", 2): return ControlClient.Call("DELETE", rule(words[1]))
        case ("clear", 1): return ControlClient.Call("DELETE", "/mock/faults")
        case ("reset", 1): return ControlClient.Call("POST", "/mock/faults/reset")
        case ("reset", 2): return ControlClient.Call("POST", rule(words[1]) + "/reset")
        case ("list", _), ("clear", _): throw UsageError("'faults \(action)' takes no value")
        case ("add", _): throw UsageError("'faults add' needs exactly one <rule> (quote it)")
        case ("remove", _): throw UsageError("'faults remove' needs exactly one rule <id>")
        case ("reset", _): throw UsageError("'faults reset' takes at most one rule <id>")
        default: throw UsageError("Unknown faults action '\(action)' (list, add, remove, clear, reset)")
        }
    }
}
