import HTTP
import JSON

/// `siwa-mock keys [list | rotate | publish KID | retire KID | sign KID]` against a running mock.
struct KeysCommand: ControlVerb {
    static let name = "keys"
    static let abstract = "List or rotate a running mock's id_token signing keys."
    static let discussion: String? = """
        EXAMPLES:
          siwa-mock keys                    # list: which kid signs, which are published
          siwa-mock keys rotate             # a new key signs from now on; the old one stays published
          siwa-mock keys rotate --kid K2    # ... with this kid
          siwa-mock keys retire K1          # drop K1 from /auth/keys (tokens it signed stop verifying)
          siwa-mock keys publish K1 | sign K1
        """
    static let positionalsSynopsis: String? = "[list | rotate | publish <kid> | retire <kid> | sign <kid>]"
    static let kid = Option.optional(
        "kid", "kid", help: "rotate: the new key's kid.", shownDefault: "generated", parser: .nonEmpty)
    static let options: [OptionSpec] = [kid.spec] + ControlClient.options

    var client: ControlClient
    var call: ControlClient.Call

    static func call(_ arguments: ParsedArguments) throws(UsageError) -> ControlClient.Call {
        let words = arguments.positionals
        let action = words.first ?? "list"
        let kid = try arguments.read(Self.kid)
        if kid != nil && action != "rotate" { throw UsageError("--kid goes with 'keys rotate'") }
        switch (action, words.count) {
        case ("list", ...1): return ControlClient.Call("GET", "/mock/keys")
        case ("rotate", 1):
            return ControlClient.Call(
                "POST", "/mock/keys/rotate", json: kid.map { JSONObject([("kid", .string($0))]) } ?? JSONObject())
        case ("publish", 2), ("retire", 2), ("sign", 2):
            return ControlClient.Call("POST", "/mock/keys/\(URLEncodedForm.encodeComponent(words[1]))/\(action)")
        case ("list", _): throw UsageError("'keys list' takes no value")
        case ("rotate", _): throw UsageError("'keys rotate' takes no value (use --kid)")
        case ("publish", _), ("retire", _), ("sign", _): throw UsageError("'keys \(action)' needs exactly one <kid>")
        default: throw UsageError("Unknown keys action '\(action)' (list, rotate, publish, retire, sign)")
        }
    }
}
