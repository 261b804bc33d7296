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
    static let user = Option.optional(
        "user", "user", help: "Scenario user id, sub or email.", required: true, parser: .nonEmpty)
    static let client = Option.optional(
        "client", "client-id", help: "Any client of the app group to notify.", shownDefault: "the user's groups",
        parser: .nonEmpty)
    static let deliveries = Option.optional(
        "deliveries", "n", help: "Deliver the event N times with the same jti, to test deduplication.",
        shownDefault: "the deliveries_per_event setting", parser: .integer(in: 1...10))
    static let options: [OptionSpec] = [user.spec, client.spec, deliveries.spec] + ControlClient.options

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
        body = JSONObject([("type", .string(type)), ("user", .string(try arguments.read(required: Self.user)))])
        if let clientID = try arguments.read(Self.client) { body["client_id"] = .string(clientID) }
        if let deliveries = try arguments.read(Self.deliveries) { body["deliveries"] = .int(Int64(deliveries)) }
    }

    func run() throws -> Int32 { try client.run("POST", "/mock/notifications", body: .object(body)) }
}
