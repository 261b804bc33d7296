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
    static let options: [OptionSpec] =
        [
            .value("user", "user", help: "Scenario user id, sub or email.", required: true),
            .value("client", "bundle-id", help: "The native app's bundle ID.", default: "com.example.app"),
            .value(
                "scope", "scope", help: "full_name or email (repeatable).", default: "full_name and email",
                repeatable: true),
            .value("nonce", "nonce", help: "Nonce to put in the identity token."),
            .value("state", "state", help: "State echoed in the credential."),
        ] + ControlClient.options

    var client: ControlClient
    var body: JSONObject

    init(_ arguments: ParsedArguments) throws(UsageError) {
        client = try ControlClient(arguments)
        body = JSONObject()
        body["client_id"] = .string(arguments.value("client") ?? "com.example.app")
        body["user"] = .string(try arguments.required("user"))
        let scopes = arguments.all("scope")
        if !scopes.isEmpty { body["scopes"] = .array(scopes.map { .string($0) }) }
        if let nonce = arguments.value("nonce") { body["nonce"] = .string(nonce) }
        if let state = arguments.value("state") { body["state"] = .string(state) }
    }

    func run() throws -> Int32 { try client.run("POST", "/mock/credentials", body: .object(body)) }
}
