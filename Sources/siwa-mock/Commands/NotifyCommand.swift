import JSON

/// `siwa-mock notify TYPE --user U`: makes a running mock send a server-to-server notification.
struct NotifyCommand: Command {
    static let name = "notify"
    static let abstract = "Send a server-to-server notification from a running mock."
    static let discussion: String? = """
        TYPE is email-disabled, email-enabled, consent-revoked, account-delete or account-deleted.
        EXAMPLE:
          siwa-mock notify consent-revoked --user alice
        """
    static let positionalsSynopsis: String? = "<type>"
    static let options: [OptionSpec] =
        [
            .value("user", "user", help: "Scenario user id, sub or email.", required: true),
            .value("client", "client-id", help: "Any client of the app group to notify (default: the user's groups)."),
            .value(
                "deliveries", "n", help: "Deliver the event N times (1-10) with the same jti, to test deduplication."),
        ] + ControlClient.options

    static let types = ["email-disabled", "email-enabled", "consent-revoked", "account-delete", "account-deleted"]

    var client: ControlClient
    var body: JSONObject

    init(_ arguments: ParsedArguments) throws(UsageError) {
        client = try ControlClient(arguments)
        guard arguments.positionals.count == 1, let type = arguments.positionals.first else {
            throw UsageError("Expected exactly one notification type (\(Self.types.joined(separator: ", ")))")
        }
        guard Self.types.contains(type) else {
            throw UsageError("Unknown notification type '\(type)' (\(Self.types.joined(separator: ", ")))")
        }
        body = JSONObject([("type", .string(type)), ("user", .string(try arguments.required("user")))])
        if let clientID = arguments.value("client") { body["client_id"] = .string(clientID) }
        if let deliveries = try arguments.integer("deliveries", in: 1...10) {
            body["deliveries"] = .int(Int64(deliveries))
        }
    }

    func run() throws -> Int32 { try client.run("POST", "/mock/notifications", body: .object(body)) }
}
