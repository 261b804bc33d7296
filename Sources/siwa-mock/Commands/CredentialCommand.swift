import JSON

/// `siwa-mock credential`: the native-app credential a running mock hands an iPhone app.
struct CredentialCommand: Command {
    static let name = "credential"
    static let abstract = "Print the ASAuthorizationAppleIDCredential a native app would get (from a running mock)."
    static let discussion: String? = """
        EXAMPLE:
          siwa-mock credential --user alice --client com.example.app --nonce abc
        The authorizationCode is redeemable at /auth/token with the bundle ID and no redirect_uri.
        """
    static let user = Option.optional(
        "user", "user", help: "Scenario user id, sub or email.", required: true, parser: .nonEmpty)
    static let client = Option(
        "client", "bundle-id", help: "The native app's bundle ID.", default: "com.example.app", parser: .nonEmpty)
    static let scope = Option.repeated(
        "scope", "scope", help: "full_name or email (repeatable).", shownDefault: "full_name and email",
        parser: .nonEmpty)
    static let nonce = Option.optional("nonce", "nonce", help: "Nonce to put in the identity token.", parser: .text)
    static let state = Option.optional("state", "state", help: "State echoed in the credential.", parser: .text)
    static let options: [OptionSpec] =
        [user.spec, client.spec, scope.spec, nonce.spec, state.spec] + ControlClient.options

    var client: ControlClient
    var body: JSONObject

    init(_ arguments: ParsedArguments) throws(UsageError) {
        client = try ControlClient(arguments)
        body = JSONObject()
        body["client_id"] = .string(try arguments.read(Self.client))
        body["user"] = .string(try arguments.read(required: Self.user))
        let scopes = try arguments.read(Self.scope)
        if !scopes.isEmpty { body["scopes"] = .array(scopes.map { .string($0) }) }
        if let nonce = try arguments.read(Self.nonce) { body["nonce"] = .string(nonce) }
        if let state = try arguments.read(Self.state) { body["state"] = .string(state) }
    }

    func run() throws -> Int32 { try client.run("POST", "/mock/credentials", body: .object(body)) }
}
