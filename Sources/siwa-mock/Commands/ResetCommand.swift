/// `siwa-mock reset`: `POST /mock/reset` for shell-based CI, between test cases.
struct ResetCommand: ControlVerb {
    static let name = "reset"
    static let abstract = "Reset a running mock's state to its scenario (POST /mock/reset)."
    static let discussion: String? = """
        Users and keys as loaded, no codes, tokens or consents, no relay mail and a fresh day's 100 per
        address, the clock as at start (what POST /mock/reset does; see docs/control-api.md for what it
        keeps). EXAMPLE:
          siwa-mock reset --url http://127.0.0.1:8080
        """
    var client: ControlClient
    var call: ControlClient.Call

    static func call(_ arguments: ParsedArguments) throws(UsageError) -> ControlClient.Call {
        ControlClient.Call("POST", "/mock/reset")
    }
}
