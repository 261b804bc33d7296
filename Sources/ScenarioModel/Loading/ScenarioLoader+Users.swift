import JOSE
import ScenarioFormat

extension ScenarioLoader {
    static let userKeys = [
        "id", "sub", "email", "email_verified", "private_email", "relay_email", "is_private_email_claim",
        "email_forwarding", "name",
        "real_user_status", "credential_state", "transfer_sub", "team_subs", "consented_scopes",
        "first_authorization_done", "keychain",
    ]

    /// `users: [...]`; a missing `sub` or `relay_email` is derived from the seed, team and user id, so it
    /// is stable run to run and different across teams.
    func readUsers(_ node: Node?, scenario: Scenario, _ context: LoadContext) -> [UserProfile] {
        guard let items = context.sequence(node, at: "users") else { return [] }
        return items.enumerated().compactMap { index, item in
            readUser(item, path: "users[\(index)]", scenario: scenario, context)
        }
    }

    func readUser(_ item: Node, path: String, scenario: Scenario, _ context: LoadContext) -> UserProfile? {
        guard let map = context.mapping(item, allowed: Self.userKeys, at: path),
            let id = readRequiredString(map, "id", path: "\(path).id", context)
        else { return nil }
        func string(_ key: String) -> String? {
            context.read(map.optional(key), at: "\(path).\(key)") { node throws(ScenarioDiagnostic) in try node.string()
            }
        }
        func flag(_ key: String) -> Bool? {
            context.read(map.optional(key), at: "\(path).\(key)") { node throws(ScenarioDiagnostic) in try node.bool() }
        }
        var user = UserProfile(
            id: id, sub: string("sub") ?? scenario.derivedSub(ofUserID: id),
            email: string("email") ?? "\(id)@example.com")
        user.emailVerified = flag("email_verified") ?? true
        user.privateEmail = flag("private_email") ?? false
        user.relayEmail = string("relay_email")
        if user.privateEmail && user.relayEmail == nil {
            user.relayEmail = scenario.derivedRelayEmail(of: user)
        }
        if let relay = user.relayEmail, let node = map.optional("relay_email"),
            !relay.hasSuffix("@privaterelay.appleid.com")
        {
            context.report(node, "a relay address ends in '@privaterelay.appleid.com' (got '\(relay)')")
        }
        user.sendsPrivateEmailClaim = flag("is_private_email_claim") ?? true
        user.emailForwardingEnabled = flag("email_forwarding") ?? true
        if let node = map.optional("name") { user.name = readName(node, context) ?? user.name }
        if let node = map.optional("real_user_status") { readRealUserStatus(node, into: &user, path: path, context) }
        if let state = readChoice(
            map.optional("credential_state"), at: "\(path).credential_state",
            [
                ("authorized", CredentialState.authorized), ("revoked", .revoked), ("not_found", .notFound),
                ("transferred", .transferred),
            ],
            context)
        {
            user.credentialState = state
        }
        user.transferSub = string("transfer_sub")
        if let node = map.optional("transfer_sub"), user.credentialState != .transferred {
            context.report(node, "'transfer_sub' needs credential_state: transferred")
        }
        if let node = map.optional("team_subs"), let subs = context.mapping(node, allowed: context.teamIDs) {
            for entry in subs.entries {
                if let sub = context.read(entry.value, { node throws(ScenarioDiagnostic) in try node.string() }) {
                    user.teamSubs[entry.keyText] = sub
                }
            }
        }
        let consented = map.optional("consented_scopes").flatMap { node in
            context.strings(node, at: "\(path).consented_scopes")?.compactMap { name -> Scope? in
                guard let scope = Scope(rawValue: name), scope != .openid else {
                    context.report(node, "unknown scope '\(name)' (expected 'name' or 'email')")
                    return nil
                }
                return scope
            }
        }
        let done = flag("first_authorization_done")
        if done == false, let node = map.optional("consented_scopes") {
            context.report(node, "'consented_scopes' needs first_authorization_done: true (or leave it out)")
        } else if done == true || consented != nil {
            user.consentedScopes = consented ?? [.name, .email]
        }
        user.keychain = readKeychain(map.optional("keychain"), path: "\(path).keychain", context)
        return user
    }

    /// `keychain: [{domain, user, password}]`: passwords the user saved for websites.
    func readKeychain(_ node: Node?, path: String, _ context: LoadContext) -> [SavedPassword] {
        guard let node else { return [] }
        guard case .sequence(let items) = node.kind else {
            context.report(node, "expected a list of {domain, user, password}")
            return []
        }
        return items.enumerated().compactMap { index, item -> SavedPassword? in
            let at = "\(path)[\(index)]"
            guard let map = context.mapping(item, allowed: ["domain", "user", "password"], at: at) else { return nil }
            // All three read before giving up, so every missing key is reported.
            let domain = readRequiredString(map, "domain", path: "\(at).domain", context)
            let user = readRequiredString(map, "user", path: "\(at).user", context)
            let password = readRequiredString(map, "password", path: "\(at).password", context)
            guard let domain, let user, let password else { return nil }
            if let problem = Self.domainProblem(domain), let domainNode = map.optional("domain") {
                context.report(domainNode, problem)
                return nil
            }
            return SavedPassword(domain: domain, user: user, password: password)
        }
    }

    /// `name: {first: Ann, last: Lee}` or `name: Ann Lee` (split at the first space).
    func readName(_ node: Node, _ context: LoadContext) -> PersonName? {
        if case .scalar(let text, _) = node.kind {
            let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
            return PersonName(firstName: parts.first ?? "", lastName: parts.count > 1 ? parts[1] : "")
        }
        guard let map = context.mapping(node, allowed: ["first", "last"]) else { return nil }
        let first = context.read(map.optional("first")) { node throws(ScenarioDiagnostic) in try node.string() } ?? ""
        let last = context.read(map.optional("last")) { node throws(ScenarioDiagnostic) in try node.string() } ?? ""
        return PersonName(firstName: first, lastName: last)
    }

    static let realUserStatuses: [(String, RealUserStatus)] = [
        ("unsupported", .unsupported), ("unknown", .unknown), ("likely_real", .likelyReal),
    ]

    /// `real_user_status: likely_real` or `{value: unknown, always: true}`.
    func readRealUserStatus(_ node: Node, into user: inout UserProfile, path: String, _ context: LoadContext) {
        if case .mapping = node.kind {
            guard let map = context.mapping(node, allowed: ["value", "always"]) else { return }
            guard let valueNode = map.optional("value") else {
                context.report(node, "missing required key 'value'")
                return
            }
            if let status = readChoice(valueNode, at: "\(path).real_user_status", Self.realUserStatuses, context) {
                user.realUserStatus = status
            }
            user.realUserStatusAlways =
                context.read(map.optional("always")) { node throws(ScenarioDiagnostic) in try node.bool() } ?? false
        } else if let status = readChoice(node, at: "\(path).real_user_status", Self.realUserStatuses, context) {
            user.realUserStatus = status
        }
    }
}
