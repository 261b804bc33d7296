import HTTP
import JSON
import SIWAServer

/// `siwa-mock mail [list | show <id> | raw <id> | reply <id> [<text>] | clear]` against a running mock:
/// the private email relay's mailbox (`/mock/mail`, docs/relay-mail.md).
struct MailCommand: ControlVerb {
    static let name = "mail"
    static let abstract = "List, show or clear the mail a running mock's private email relay handled."
    static let discussion: String? = """
        The relay listens with `serve --smtp-port`; every message it delivered, and every attempt it
        refused with the SMTP reply the sender got, is in the mailbox.
        EXAMPLES:
          siwa-mock mail --status rejected          # refused attempts and their SMTP replies
          siwa-mock mail list --status delivered --wait 10s  # as soon as one is there (≤ 1h)
          siwa-mock mail show m1                    # headers as delivered, text and HTML parts
          siwa-mock mail raw m1 > m1.eml            # the message as delivered
          siwa-mock mail reply m1 'Thanks!'         # the user answers: relayed to the developer
          siwa-mock mail clear                      # empty the mailbox and the daily counts
        """
    static let positionalsSynopsis: String? = "[list | show <id> | raw <id> | reply <id> [<text>] | clear]"
    static let relay = Option.optional(
        "relay-address", "address", help: "list: only mail to this relay address.", parser: .nonEmpty)
    static let real = Option.optional(
        "real-address", "address", help: "list: only mail delivered to this address.", parser: .nonEmpty)
    static let team = Option.optional("team", "team-id", help: "list: only mail for this team.", parser: .nonEmpty)
    static let sender = Option.optional(
        "sender", "address", help: "list: only mail with this envelope or header sender.", parser: .nonEmpty)
    static let status = Option.optional(
        "status", "status", help: "list: delivered, rejected or deferred.", parser: .nonEmpty)
    static let since = Option.optional(
        "since", "time", help: "list: only mail at or after this RFC 3339 time.", parser: .nonEmpty)
    static let filters = [relay, real, team, sender, status, since]
    static let wait = Option.optional(
        "wait", "duration",
        help: "list: answer as soon as a matching message is there, else after this long (at most 1h).",
        parser: .duration)
    static var options: [OptionSpec] { filters.map(\.spec) + [wait.spec] + ControlClient.options }

    /// The longest `--wait`: the server's.
    static let maximumWaitMilliseconds = MailEndpoints.maximumWaitMilliseconds

    var client: ControlClient
    var call: ControlClient.Call

    static func call(_ arguments: ParsedArguments) throws(UsageError) -> ControlClient.Call {
        let words = arguments.positionals
        let action = words.first ?? "list"
        func message(_ id: String, _ suffix: String = "") -> String {
            "/mock/mail/" + URLEncodedForm.encodeComponent(id) + suffix
        }
        let names = ["relay_address", "real_address", "team", "sender", "status", "since"]
        var query: [(String, String?)] = []
        for (name, option) in zip(names, filters) { query.append((name, try arguments.read(option))) }
        let wait = try arguments.read(Self.wait)
        if action != "list" && (wait != nil || query.contains(where: { $0.1 != nil })) {
            throw UsageError("filters (--relay-address, --status, --wait, …) apply to 'mail list' only")
        }
        if let wait, wait > MailCommand.maximumWaitMilliseconds {
            throw UsageError("--wait must be at most 1h (the server's limit)")
        }
        switch (action, words.count) {
        case ("list", ...1):
            query.append(("wait", wait.map { "\($0)ms" }))
            var call = ControlClient.Call("GET", "/mock/mail" + ControlClient.query(query))
            // The server answers by the end of the wait; the usual allowance comes on top.
            call.timeoutMilliseconds += Int(wait ?? 0)
            return call
        case ("show", 2): return ControlClient.Call("GET", message(words[1]))
        case ("raw", 2): return ControlClient.Call("GET", message(words[1], ".eml"))
        case ("clear", 1): return ControlClient.Call("DELETE", "/mock/mail")
        case ("reply", 2...3):
            let body = JSONValue.object(JSONObject([("text", .string(words.count == 3 ? words[2] : ""))]))
            return ControlClient.Call("POST", message(words[1], "/reply"), body: body.serialized())
        case ("list", _), ("clear", _): throw UsageError("'mail \(action)' takes no value")
        case ("show", _), ("raw", _): throw UsageError("'mail \(action)' needs exactly one message <id>")
        case ("reply", _): throw UsageError("'mail reply' needs a message <id> and at most one <text>")
        default: throw UsageError("Unknown mail action '\(action)' (list, show, raw, reply, clear)")
        }
    }
}
