import ScenarioFormat

extension ScenarioLoader {
    static let actionNames = [
        "update_user", "revoke_consent", "delete_account", "rotate_key", "sign_with", "publish_key", "retire_key",
        "start_fault", "stop_fault", "notify",
    ]

    /// `timeline: [{at: 10m | after: …, do: [actions]}]`.
    func readTimeline(_ node: Node?, scenario: Scenario, _ context: LoadContext) -> [TimelineEntry] {
        guard let items = context.sequence(node, at: "timeline") else { return [] }
        let faultIDs = scenario.faults.map(\.id)
        var kids = scenario.signingKeys.keys.map(\.kid)
        return items.compactMap { item -> TimelineEntry? in
            guard let map = context.mapping(item, allowed: ["at", "after", "do"]) else { return nil }
            let trigger: TimelineEntry.Trigger?
            switch (map.optional("at"), map.optional("after")) {
            case (let at?, nil):
                trigger = context.read(at) { node throws(ScenarioDiagnostic) in try node.durationMilliseconds() }.map {
                    .at(milliseconds: $0)
                }
            case (nil, let after?):
                trigger = readAfterTrigger(after, context)
            case (_?, _?):
                context.report(map.optional("after")!, "give either 'at' or 'after', not both")
                trigger = nil
            case (nil, nil):
                context.report(item, "a timeline entry needs 'at' (mock-clock time) or 'after' (request count)")
                trigger = nil
            }
            guard let doNode = map.optional("do") else {
                context.report(item, "missing required key 'do'")
                return nil
            }
            let actions = (context.sequence(doNode, at: "timeline.do") ?? []).compactMap {
                readAction($0, faultIDs: faultIDs, kids: &kids, context)
            }
            guard let trigger else { return nil }
            return TimelineEntry(trigger: trigger, actions: actions)
        }
    }

    /// `after: 2 POST /auth/token with grant_type=refresh_token for alice` or the structured
    /// `after: {count: 2, match: POST /auth/token, form: {…}, client: …, user: …}`.
    func readAfterTrigger(_ node: Node, _ context: LoadContext) -> TimelineEntry.Trigger? {
        if case .mapping = node.kind {
            guard let map = context.mapping(node, allowed: ["count", "match", "form", "client", "user"]) else {
                return nil
            }
            guard let countNode = map.optional("count") else {
                context.report(node, "missing required key 'count'")
                return nil
            }
            guard let count = readCount(countNode, minimum: 1, context),
                let matcher = readMatcher(map, requestKey: "match", context)
            else { return nil }
            return .afterRequests(count: count, matcher: matcher)
        }
        guard let text = context.read(node, { node throws(ScenarioDiagnostic) in try node.string() }) else {
            return nil
        }
        switch Self.parseAfter(text) {
        case .failure(let error):
            context.report(node, error.message)
            return nil
        case .success(let (count, matcher)):
            if let path = matcher.path, RequestMatcher.isControlPath(path) {
                context.report(node, Self.controlPathRefused(path))
                return nil
            }
            reportRouteProblems(matcher, at: node, fields: [:], context)
            if let user = matcher.userID, context.checksReferences, !context.userIDs.contains(user) {
                context.report(node, Scenario.unknown("user", user, among: context.userIDs))
            }
            if let client = matcher.clientID, context.checksReferences, !context.clientIDs.contains(client) {
                context.report(node, Scenario.unknown("client", client, among: context.clientIDs))
            }
            return .afterRequests(count: count, matcher: matcher)
        }
    }

    struct AfterSyntaxError: Error { var message: String }

    /// Parses `N [METHOD] /path [with k=v[,k=v…]] [for USER] [from CLIENT]`.
    static func parseAfter(_ text: String) -> Result<(Int, RequestMatcher), AfterSyntaxError> {
        let usage = "expected 'N METHOD /path [with field=value,…] [for USER] [from CLIENT]', found '\(text)'"
        var words = text.split(separator: " ").map(String.init)[...]
        guard let first = words.popFirst(), first.count <= 9, let count = Int(first), count >= 1 else {
            return .failure(AfterSyntaxError(message: usage))
        }
        var matcher = RequestMatcher()
        if let word = words.first, RequestMatcher.isMethod(word), word != "with" {
            matcher.method = word
            words = words.dropFirst()
        }
        guard let path = words.popFirst(), path.hasPrefix("/") else {
            return .failure(AfterSyntaxError(message: usage))
        }
        matcher.path = path
        while let keyword = words.popFirst() {
            guard let value = words.popFirst() else { return .failure(AfterSyntaxError(message: usage)) }
            switch keyword {
            case "with":
                for pair in value.split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    guard parts.count == 2, !parts[0].isEmpty else { return .failure(AfterSyntaxError(message: usage)) }
                    matcher.fields[parts[0]] = parts[1]
                }
            case "for": matcher.userID = value
            case "from": matcher.clientID = value
            default: return .failure(AfterSyntaxError(message: "unknown word '\(keyword)'; \(usage)"))
            }
        }
        return .success((count, matcher))
    }

    /// One action: a mapping with exactly one key from `actionNames`.
    func readAction(_ node: Node, faultIDs: [String], kids: inout [String], _ context: LoadContext) -> TimelineAction? {
        guard let map = context.mapping(node, allowed: Self.actionNames) else { return nil }
        guard map.entries.count == 1, let entry = map.entries.first else {
            context.report(node, "an action is a mapping with exactly one key, e.g. 'revoke_consent: alice'")
            return nil
        }
        let value = entry.value
        func name() -> String? { context.read(value) { node throws(ScenarioDiagnostic) in try node.string() } }
        func user() -> String? {
            guard let id = name() else { return nil }
            if context.checksReferences, !context.userIDs.contains(id) {
                context.report(value, Scenario.unknown("user", id, among: context.userIDs))
            }
            return id
        }
        func kid() -> String? {
            guard let id = name() else { return nil }
            if !kids.contains(id) { context.report(value, Scenario.unknown("signing key", id, among: kids)) }
            return id
        }
        func fault() -> String? {
            guard let id = name() else { return nil }
            if !faultIDs.contains(id) { context.report(value, Scenario.unknown("fault", id, among: faultIDs)) }
            return id
        }
        switch entry.keyText {
        case "revoke_consent": return user().map { .updateUser($0, UserChange(credentialState: .revoked)) }
        case "delete_account": return user().map { .deleteUser($0) }
        case "sign_with": return kid().map { .signWith(kid: $0) }
        case "publish_key": return kid().map { .publishKey(kid: $0) }
        case "retire_key": return kid().map { .retireKey(kid: $0) }
        case "start_fault": return fault().map { .startFault(id: $0) }
        case "stop_fault": return fault().map { .stopFault(id: $0) }
        case "notify":
            guard let notifyMap = context.mapping(value, allowed: ["type", "user", "client"]),
                let typeName = readRequiredString(notifyMap, "type", path: "timeline.notify.type", context),
                let user = readRequiredString(notifyMap, "user", path: "timeline.notify.user", context)
            else { return nil }
            guard let kind = UserEvent.Kind(typeName: typeName) else {
                context.report(
                    notifyMap.optional("type")!,
                    "expected one of 'consent-revoked', 'email-disabled', 'email-enabled', 'account-delete', 'account-deleted', found '\(typeName)'"
                )
                return nil
            }
            if context.checksReferences, !context.userIDs.contains(user) {
                context.report(notifyMap.optional("user")!, Scenario.unknown("user", user, among: context.userIDs))
            }
            let client = context.read(notifyMap.optional("client")) { node throws(ScenarioDiagnostic) in
                try node.string()
            }
            if let client, let node = notifyMap.optional("client"), !context.clientIDs.contains(client) {
                context.report(node, Scenario.unknown("client", client, among: context.clientIDs))
            }
            return .notify(kind, user: user, clientID: client)
        case "rotate_key":
            guard let keyMap = context.mapping(value, allowed: ["kid", "pem", "pem_file"]),
                let kid = readRequiredString(keyMap, "kid", path: "timeline.rotate_key", context)
            else { return nil }
            if kids.contains(kid) { context.report(value, "a signing key with kid '\(kid)' already exists") }
            kids.append(kid)
            let pem: String?
            if keyMap.optional("pem") == nil && keyMap.optional("pem_file") == nil {
                pem = generatedPEM(kid: kid, value, context)
            } else {
                pem = readPEM(keyMap, path: "timeline.rotate_key.pem", context)
            }
            return pem.map { .rotateKey(SigningKey(kid: kid, privateKeyPEM: $0, published: true, signs: true)) }
        default:
            return readUserUpdate(value, context)
        }
    }

    /// `update_user: {user: alice, credential_state: revoked, email_forwarding: false, …}`.
    func readUserUpdate(_ node: Node, _ context: LoadContext) -> TimelineAction? {
        let keys = [
            "user", "credential_state", "email_forwarding", "real_user_status", "email", "email_verified",
            "private_email",
            "relay_email", "name",
        ]
        guard let map = context.mapping(node, allowed: keys),
            let user = readRequiredString(map, "user", path: "timeline.user", context)
        else { return nil }
        if context.checksReferences, !context.userIDs.contains(user) {
            context.report(map.optional("user")!, Scenario.unknown("user", user, among: context.userIDs))
        }
        func string(_ key: String) -> String? {
            context.read(map.optional(key)) { node throws(ScenarioDiagnostic) in try node.string() }
        }
        func flag(_ key: String) -> Bool? {
            context.read(map.optional(key)) { node throws(ScenarioDiagnostic) in try node.bool() }
        }
        var change = UserChange()
        change.credentialState = readChoice(
            map.optional("credential_state"), at: nil,
            [
                ("authorized", CredentialState.authorized), ("revoked", .revoked), ("not_found", .notFound),
                ("transferred", .transferred),
            ],
            context)
        change.emailForwardingEnabled = flag("email_forwarding")
        change.realUserStatus = readChoice(map.optional("real_user_status"), at: nil, Self.realUserStatuses, context)
        change.email = string("email")
        change.emailVerified = flag("email_verified")
        change.privateEmail = flag("private_email")
        change.relayEmail = string("relay_email")
        for (key, value) in [("email", change.email), ("relay_email", change.relayEmail)] {
            if let value, let problem = AddrSpec.problem(value), let node = map.optional(key) {
                context.report(node, "\(key) is not an email address (RFC 5322 addr-spec): it \(problem)")
            }
        }
        if let node = map.optional("name"), let name = readName(node, context) {
            change.firstName = name.firstName
            change.lastName = name.lastName
        }
        return .updateUser(user, change)
    }
}
