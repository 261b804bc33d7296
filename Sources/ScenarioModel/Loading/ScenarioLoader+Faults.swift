import ScenarioFormat

extension ScenarioLoader {
    static let faultKeys = [
        "id", "match", "form", "client", "user", "after", "times", "probability", "window", "enabled", "status",
        "error", "error_description", "body", "headers", "delay", "connection", "slow_body", "tamper",
    ]

    /// `faults: [...]`, each rule read by `readFault`.
    func readFaults(_ node: Node?, scenario: Scenario, _ context: LoadContext) -> [FaultRule] {
        guard let items = context.sequence(node, at: "faults") else { return [] }
        var seen: [String: Node] = [:]
        return items.enumerated().compactMap { index, item -> FaultRule? in
            guard let rule = readFault(item, defaultID: "fault-\(index + 1)", context) else { return nil }
            if let first = seen[rule.id] {
                context.report(item, "duplicate fault id '\(rule.id)' (first defined at line \(first.position.line))")
            }
            seen[rule.id] = item
            return rule
        }
    }

    /// One fault rule (also used for `POST /mock/faults` bodies, which are JSON).
    func readFault(_ item: Node, defaultID: String, _ context: LoadContext) -> FaultRule? {
        guard let map = context.mapping(item, allowed: Self.faultKeys) else { return nil }
        let id = context.read(map.optional("id")) { node throws(ScenarioDiagnostic) in try node.string() } ?? defaultID
        var rule = FaultRule(id: id, action: FaultAction())
        guard let matcher = readMatcher(map, requestKey: "match", context) else { return nil }
        rule.matcher = matcher
        if let node = map.optional("after"), let value = readCount(node, minimum: 0, context) { rule.after = value }
        if let node = map.optional("times"), let value = readCount(node, minimum: 1, context) { rule.times = value }
        if let node = map.optional("probability"),
            let p = context.read(node, { node throws(ScenarioDiagnostic) in try node.double() })
        {
            if p < 0 || p > 1 {
                context.report(node, "probability must be between 0 and 1 (got \(p))")
            } else {
                rule.probability = p
            }
        }
        if let node = map.optional("window"), let window = context.mapping(node, allowed: ["from", "until"]) {
            let from = context.read(window.optional("from")) { node throws(ScenarioDiagnostic) in
                try node.durationMilliseconds()
            }
            let until = context.read(window.optional("until")) { node throws(ScenarioDiagnostic) in
                try node.durationMilliseconds()
            }
            if let from, let until, until <= from { context.report(node, "window 'until' must be after 'from'") }
            rule.window = FaultRule.TimeWindow(fromMilliseconds: from, untilMilliseconds: until)
        }
        rule.enabled =
            context.read(map.optional("enabled")) { node throws(ScenarioDiagnostic) in try node.bool() } ?? true
        rule.action = readFaultAction(map, context)
        // Only when no action key is given at all: an invalid one already has its own error.
        let actionKeys = ["status", "error", "body", "headers", "delay", "connection", "tamper"]
        if rule.action == FaultAction() && !actionKeys.contains(where: { map.optional($0) != nil }) {
            context.report(item, "a fault needs 'status', 'error', 'body', 'delay', 'connection' or 'tamper'")
        }
        if let node = map.optional("tamper") { rule.action.tamper = readTamper(node, rule: rule, map, context) }
        return rule
    }

    func readFaultAction(_ map: MappingReader, _ context: LoadContext) -> FaultAction {
        var action = FaultAction()
        let error = context.read(map.optional("error")) { node throws(ScenarioDiagnostic) in try node.string() }
        let description = context.read(map.optional("error_description")) { node throws(ScenarioDiagnostic) in
            try node.string()
        }
        let body = context.read(map.optional("body")) { node throws(ScenarioDiagnostic) in try node.string() }
        var status: Int?
        if let node = map.optional("status"),
            let value = context.read(node, { node throws(ScenarioDiagnostic) in try node.int() })
        {
            if value < 200 || value > 599 {
                // A 1xx is interim (RFC 9110 §15.2): sent as the answer, the client waits for another.
                context.report(node, "status must be between 200 and 599 (got \(value)); 1xx is not a final answer")
            } else {
                status = Int(value)
            }
        }
        if error != nil && body != nil {
            context.report(map.optional("body")!, "give either 'error' or 'body', not both")
        }
        if description != nil && error == nil {
            context.report(map.optional("error_description")!, "'error_description' needs 'error'")
        }
        var headers: [(name: String, value: String)] = []
        if let node = map.optional("headers"),
            let headerMap = context.read(node, { node throws(ScenarioDiagnostic) in try node.mapping() })
        {
            for entry in headerMap.entries {
                if let value = context.read(entry.value, { node throws(ScenarioDiagnostic) in try node.string() }) {
                    headers.append((entry.keyText, value))
                }
            }
        }
        if status != nil || error != nil || body != nil || !headers.isEmpty {
            action.response = FaultResponse(
                status: status ?? (error != nil ? 400 : 200), error: error, errorDescription: description, body: body,
                headers: headers)
        }
        if let node = map.optional("delay") { action.delay = readDelay(node, context) }
        if let node = map.optional("connection") {
            action.connection = readChoice(
                node, at: nil,
                [
                    ("reset", ConnectionFault.reset), ("close_without_response", .closeWithoutResponse),
                    ("malformed_json", .malformedJSON), ("truncated_body", .truncatedBody),
                    ("slow_body", .slowBody(chunkSize: 16, intervalMilliseconds: 100)),
                ],
                context)
            if let connection = action.connection, action.response != nil,
                connection == .reset || connection == .closeWithoutResponse
            {
                context.report(
                    node,
                    "'\(connection.name)' sends no response, so 'status'/'error'/'body'/'headers' would be ignored")
            }
        }
        if let node = map.optional("slow_body"), let slow = context.mapping(node, allowed: ["chunk_size", "interval"]) {
            guard case .slowBody = action.connection else {
                context.report(node, "'slow_body' settings need connection: slow_body")
                return action
            }
            let chunk = slow.optional("chunk_size").flatMap { readCount($0, minimum: 1, context) } ?? 16
            let interval =
                context.read(slow.optional("interval")) { node throws(ScenarioDiagnostic) in
                    try node.durationMilliseconds()
                } ?? 100
            action.connection = .slowBody(chunkSize: chunk, intervalMilliseconds: Int(min(interval, 60_000)))
        }
        return action
    }

    /// `delay: 500ms` or `delay: {min: 100ms, max: 2s}`.
    func readDelay(_ node: Node, _ context: LoadContext) -> DelayRange? {
        if case .mapping = node.kind {
            guard let map = context.mapping(node, allowed: ["min", "max"]) else { return nil }
            guard let minNode = map.optional("min"), let maxNode = map.optional("max") else {
                context.report(node, "a delay range needs both 'min' and 'max'")
                return nil
            }
            guard
                let low = context.read(minNode, { node throws(ScenarioDiagnostic) in try node.durationMilliseconds() }),
                let high = context.read(maxNode, { node throws(ScenarioDiagnostic) in try node.durationMilliseconds() })
            else { return nil }
            if high < low {
                context.report(maxNode, "'max' must not be less than 'min'")
                return nil
            }
            if high > 600_000 {
                context.report(maxNode, "a delay may be at most 10m")
                return nil
            }
            return DelayRange(minMilliseconds: low, maxMilliseconds: high)
        }
        guard let value = context.read(node, { node throws(ScenarioDiagnostic) in try node.durationMilliseconds() })
        else { return nil }
        if value > 600_000 {
            context.report(node, "a delay may be at most 10m")
            return nil
        }
        return DelayRange(minMilliseconds: value, maxMilliseconds: value)
    }

    /// A non-negative count within Int range.
    func readCount(_ node: Node, minimum: Int64, _ context: LoadContext) -> Int? {
        guard let value = context.read(node, { node throws(ScenarioDiagnostic) in try node.int() }) else { return nil }
        guard value >= minimum, value <= 1_000_000_000 else {
            context.report(node, "expected an integer of at least \(minimum), got \(value)")
            return nil
        }
        return Int(value)
    }

    /// `match: POST /auth/token`, `form: {…}`, `client: …`, `user: …` (checked against the scenario).
    func readMatcher(_ map: MappingReader, requestKey: String, _ context: LoadContext) -> RequestMatcher? {
        var matcher = RequestMatcher()
        let requestNode = map.optional(requestKey)
        if let node = requestNode,
            let text = context.read(node, { node throws(ScenarioDiagnostic) in try node.string() })
        {
            guard let parsed = RequestMatcher.parseRequestLine(text) else {
                context.report(node, "expected 'METHOD /path' (e.g. 'POST /auth/token'), found '\(text)'")
                return nil
            }
            matcher.method = parsed.method
            matcher.path = parsed.path
            if let path = parsed.path, RequestMatcher.isControlPath(path) {
                context.report(node, Self.controlPathRefused(path))
                return nil
            }
        }
        var fieldNodes: [String: Node] = [:]
        if let node = map.optional("form"),
            let fields = context.read(node, { node throws(ScenarioDiagnostic) in try node.mapping() })
        {
            for entry in fields.entries {
                if let value = context.read(entry.value, { node throws(ScenarioDiagnostic) in try node.string() }) {
                    matcher.fields[entry.keyText] = value
                    fieldNodes[entry.keyText] = entry.key
                }
            }
        }
        reportRouteProblems(matcher, at: requestNode ?? map.node, fields: fieldNodes, context)
        if let node = map.optional("client"),
            let client = context.read(node, { node throws(ScenarioDiagnostic) in try node.string() })
        {
            if context.checksReferences, !context.clientIDs.contains(client) {
                context.report(node, Scenario.unknown("client", client, among: context.clientIDs))
            }
            matcher.clientID = client
        }
        if let node = map.optional("user"),
            let user = context.read(node, { node throws(ScenarioDiagnostic) in try node.string() })
        {
            if context.checksReferences, !context.userIDs.contains(user) {
                context.report(node, Scenario.unknown("user", user, among: context.userIDs))
            }
            matcher.userID = user
        }
        return matcher
    }

    /// Reports a matcher that no request to `ruleTargets` could satisfy (`AppleRoute.problems`): path
    /// and method problems at `node`, an unread field at its key in `fields` (else at `node`).
    func reportRouteProblems(_ matcher: RequestMatcher, at node: Node, fields: [String: Node], _ context: LoadContext) {
        guard let ruleTargets else { return }
        for problem in AppleRoute.problems(with: matcher, among: ruleTargets) {
            if case .field(let name, _) = problem, let key = fields[name] {
                context.report(key, problem.message)
            } else {
                context.report(node, problem.message)
            }
        }
    }

    /// Faults and request triggers see only Apple's endpoints; a `/mock/` rule would never fire.
    static func controlPathRefused(_ path: String) -> String {
        "'\(path)' is a control API path; faults and request triggers apply only to Apple's endpoints "
            + "(/auth/…, /.well-known/…), so it would never match"
    }
}

extension ScenarioLoader {
    /// One fault rule from text (the JSON body of `POST /mock/faults`), checked against `scenario`'s
    /// users and clients.
    package func loadFault(
        _ text: String, file: String, scenario: Scenario, defaultID: String
    ) throws(ScenarioDiagnostics) -> FaultRule {
        guard text.utf8.count <= FaultRule.maximumTextBytes else {
            throw ScenarioDiagnostics([
                ScenarioDiagnostic(
                    file: file, line: 1, column: 1,
                    message:
                        "a fault rule may be at most \(FaultRule.maximumTextBytes) bytes (got \(text.utf8.count))")
            ])
        }
        let document = try ScenarioDocument.parse(text, file: file)
        let context = LoadContext(root: document.root, file: file)
        context.clientIDs = scenario.clients.map(\.id)
        context.userIDs = scenario.users.map(\.id)
        let rule = readFault(document.root, defaultID: defaultID, context)
        guard let rule, context.diagnostics.isEmpty else {
            throw context.failure
        }
        return rule
    }
}
