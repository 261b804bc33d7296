/// `siwa-mock requests`: the journal of requests a running mock received.
struct RequestsCommand: Command {
    static let name = "requests"
    static let abstract = "Print (or clear) the journal of requests a running mock received."
    static let discussion: String? = """
        EXAMPLE:
          siwa-mock requests --path /auth/revoke --user alice
          siwa-mock requests --fleet --path /auth/token   # every replica's (docs/scale-out.md)
        Secrets (codes, tokens, client secrets) appear only as sha256: fingerprints.
        """
    static let path = Option.optional("path", "path", help: "Only requests to this path.", parser: .nonEmpty)
    static let client = Option.optional(
        "client", "client-id", help: "Only requests for this client_id.", parser: .nonEmpty)
    static let user = Option.optional(
        "user", "user", help: "Only requests concerning this user (id, sub or email).", parser: .nonEmpty)
    static let clear = Flag("clear", help: "Clear the journal instead of printing it.")
    static let fleet = Flag(
        "fleet",
        help: "Every replica's requests from the shared journal (replicas started with --shared-journal).")
    static let options: [OptionSpec] =
        [path.spec, client.spec, user.spec, clear.spec, fleet.spec] + ControlClient.options

    var client: ControlClient
    var target: String
    var clear: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        client = try ControlClient(arguments)
        clear = arguments.read(Self.clear)
        let filters: [(String, String?)] = [
            ("path", try arguments.read(Self.path)), ("client_id", try arguments.read(Self.client)),
            ("user", try arguments.read(Self.user)),
        ]
        if clear && filters.contains(where: { $0.1 != nil }) { throw UsageError("--clear takes no filters") }
        let scope: [(String, String?)] = [("scope", arguments.read(Self.fleet) ? "fleet" : nil)]
        target = "/mock/requests" + ControlClient.query(filters + scope)
    }

    func run() throws -> Int32 { try client.run(clear ? "DELETE" : "GET", target) }
}
