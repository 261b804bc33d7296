/// `siwa-mock requests`: the journal of requests a running mock received.
struct RequestsCommand: Command {
    static let name = "requests"
    static let abstract = "Print (or clear) the journal of requests a running mock received."
    static let discussion: String? = """
        EXAMPLE:
          siwa-mock requests --path /auth/revoke --user alice
        Secrets (codes, tokens, client secrets) appear only as sha256: fingerprints.
        """
    static let options: [OptionSpec] =
        [
            .value("path", "path", help: "Only requests to this path."),
            .value("client", "client-id", help: "Only requests for this client_id."),
            .value("user", "user", help: "Only requests concerning this user (id, sub or email)."),
            .flag("clear", help: "Clear the journal instead of printing it."),
        ] + ControlClient.options

    var client: ControlClient
    var target: String
    var clear: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        client = try ControlClient(arguments)
        clear = arguments.has("clear")
        target =
            "/mock/requests"
            + ControlClient.query([
                ("path", arguments.value("path")), ("client_id", arguments.value("client")),
                ("user", arguments.value("user")),
            ])
        if clear && target != "/mock/requests" { throw UsageError("--clear takes no filters") }
    }

    func run() throws -> Int32 { try client.run(clear ? "DELETE" : "GET", target) }
}
