import HTTP
import JSON

/// `siwa-mock users [list | get ID | add --id --email … | revoke ID | delete ID]` against a running mock.
struct UsersCommand: ControlVerb {
    static let name = "users"
    static let abstract = "List, show, add, revoke or delete a running mock's users."
    static let discussion: String? = """
        EXAMPLES:
          siwa-mock users                                   # list
          siwa-mock users get alice
          siwa-mock users add --id erin --email erin@example.com --first-name Erin
          siwa-mock users revoke alice      # credential state revoked (the app's getCredentialState)
          siwa-mock users delete alice      # the user deletes their Apple Account
        ID is a user's id, sub or email.
        """
    static let positionalsSynopsis: String? = "[list | get <id> | add | revoke <id> | delete <id>]"

    static let id = Option.optional("id", "id", help: "add: the new user's id.", parser: .nonEmpty)
    static let email = Option.optional("email", "email", help: "add: the user's email.", parser: .nonEmpty)
    static let sub = Option.optional(
        "sub", "sub", help: "add: the user's stable identifier.", shownDefault: "generated", parser: .nonEmpty)
    static let firstName = Option.optional("first-name", "name", help: "add: given name.", parser: .text)
    static let lastName = Option.optional("last-name", "name", help: "add: family name.", parser: .text)
    static let privateEmail = Flag("private-email", help: "add: the user hides their email (a relay address).")
    static let addOptions: [OptionSpec] = [
        id.spec, email.spec, sub.spec, firstName.spec, lastName.spec, privateEmail.spec,
    ]
    static let options: [OptionSpec] = addOptions + ControlClient.options

    var client: ControlClient
    var call: ControlClient.Call

    static func call(_ arguments: ParsedArguments) throws(UsageError) -> ControlClient.Call {
        let words = arguments.positionals
        let action = words.first ?? "list"
        let addOptionGiven = Self.addOptions.contains { arguments.value($0.name) != nil || arguments.has($0.name) }
        if action != "add" && addOptionGiven {
            throw UsageError("--id, --email, --sub, --first-name, --last-name and --private-email go with 'users add'")
        }
        switch action {
        case "list":
            guard words.count <= 1 else { throw UsageError("'users list' takes no value") }
            return ControlClient.Call("GET", "/mock/users")
        case "get", "revoke", "delete":
            guard words.count == 2 else { throw UsageError("'users \(action)' needs exactly one user <id>") }
            let target = "/mock/users/" + URLEncodedForm.encodeComponent(words[1])
            switch action {
            case "get": return ControlClient.Call("GET", target)
            case "delete": return ControlClient.Call("DELETE", target)
            default:
                return ControlClient.Call("PATCH", target, json: JSONObject([("credential_state", .string("revoked"))]))
            }
        case "add":
            guard words.count == 1 else { throw UsageError("'users add' takes options, not values (--id, --email)") }
            var user = JSONObject([
                ("id", .string(try arguments.read(required: Self.id))),
                ("email", .string(try arguments.read(required: Self.email))),
            ])
            if let sub = try arguments.read(Self.sub) { user["sub"] = .string(sub) }
            if let first = try arguments.read(Self.firstName) { user["first_name"] = .string(first) }
            if let last = try arguments.read(Self.lastName) { user["last_name"] = .string(last) }
            if arguments.read(Self.privateEmail) { user["private_email"] = .bool(true) }
            return ControlClient.Call("POST", "/mock/users", json: user)
        default:
            throw UsageError("Unknown users action '\(action)' (list, get, add, revoke, delete)")
        }
    }
}
