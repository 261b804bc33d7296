import ScenarioFormat

extension ScenarioLoader {
    /// Top-level server identity: `name`, `seed`, `issuer`, lifetimes, `boolean_style`, `clock`.
    func readSettings(_ top: MappingReader, into scenario: inout Scenario, _ context: LoadContext) {
        if let name = context.read(top.optional("name"), { node throws(ScenarioDiagnostic) in try node.string() }) {
            scenario.name = name
        }
        if let node = top.optional("seed"),
            let seed = context.read(node, { node throws(ScenarioDiagnostic) in try node.int() })
        {
            if seed < 0 { context.report(node, "seed must not be negative") } else { scenario.seed = UInt64(seed) }
        }
        var settings = scenario.settings
        if let issuer = context.read(
            top.optional("issuer"), at: "settings.issuer", { node throws(ScenarioDiagnostic) in try node.string() })
        {
            settings.issuer = issuer
        }
        func seconds(_ key: String, _ path: String, _ assign: (Int64) -> Void) {
            guard let node = top.optional(key) else { return }
            guard
                let ms = context.read(
                    node, at: path, { node throws(ScenarioDiagnostic) in try node.durationMilliseconds() })
            else { return }
            if ms % 1000 != 0 { context.report(node, "'\(key)' must be whole seconds") } else { assign(ms / 1000) }
        }
        seconds("lifetime", "settings.id_token_lifetime") { settings.idTokenLifetimeSeconds = $0 }
        seconds("code_lifetime", "settings.code_lifetime") { settings.codeLifetimeSeconds = $0 }
        seconds("access_token_lifetime", "settings.access_token_lifetime") { settings.accessTokenLifetimeSeconds = $0 }
        seconds("client_secret_max_lifetime", "settings.client_secret_max_lifetime") {
            settings.clientSecretMaxLifetimeSeconds = $0
        }
        seconds("client_secret_clock_skew", "settings.client_secret_clock_skew") {
            settings.clientSecretClockSkewSeconds = $0
        }
        if let style = readChoice(
            top.optional("boolean_style"), at: "settings.boolean_style",
            [("bool", ScenarioSettings.BooleanStyle.bool), ("string", .string)], context)
        {
            settings.booleanStyle = style
        }
        if let flag = context.read(
            top.optional("include_false_private_email"), { node throws(ScenarioDiagnostic) in try node.bool() })
        {
            settings.includeFalsePrivateEmail = flag
        }
        if let mode = readChoice(
            top.optional("default_response_mode"), at: "settings.default_response_mode",
            [("by_response_type", ScenarioSettings.DefaultResponseMode.byResponseType), ("query", .query)], context)
        {
            settings.defaultResponseMode = mode
        }
        if let method = readChoice(
            top.optional("client_authentication"), at: "settings.client_authentication",
            [("post", ScenarioSettings.ClientAuthentication.post), ("post_or_basic", .postOrBasic)], context)
        {
            settings.clientAuthentication = method
        }
        if let answer = readChoice(
            top.optional("non_form_body"), at: "settings.non_form_body",
            [
                ("invalid_client", ScenarioSettings.NonFormBody.invalidClient),
                ("unsupported_grant_type", .unsupportedGrantType),
            ], context)
        {
            settings.nonFormBody = answer
        }
        if let flag = context.read(
            top.optional("refresh_id_token"), { node throws(ScenarioDiagnostic) in try node.bool() })
        {
            settings.refreshIDToken = flag
        }
        if let flag = context.read(
            top.optional("refresh_id_token_auth_time"), { node throws(ScenarioDiagnostic) in try node.bool() })
        {
            settings.refreshIDTokenAuthTime = flag
        }
        if let shape = readChoice(
            top.optional("web_message"), at: "settings.web_message",
            [("envelope", ScenarioSettings.WebMessageShape.envelope), ("response", .response)], context)
        {
            settings.webMessageShape = shape
        }
        if let node = top.optional("notifications") { readNotifications(node, into: &settings.notifications, context) }
        scenario.settings = settings
        if let node = top.optional("clock"), let clock = context.mapping(node, allowed: ["start", "frozen"]) {
            if let start = context.read(
                clock.optional("start"), { node throws(ScenarioDiagnostic) in try node.timestamp() })
            {
                scenario.clock.startMilliseconds = start.millisecondsSinceEpoch
            }
            if let frozen = context.read(
                clock.optional("frozen"), { node throws(ScenarioDiagnostic) in try node.bool() })
            {
                scenario.clock.frozen = frozen
            }
        }
    }

    /// `notifications: {send_on_user_changes, events_as_string, event_time_ms, account_deletion_type, …}`.
    func readNotifications(_ node: Node, into settings: inout NotificationSettings, _ context: LoadContext) {
        let keys = [
            "send_on_user_changes", "events_as_string", "event_time_ms", "account_deletion_type", "max_attempts",
            "retry_delay", "timeout", "deliveries_per_event",
        ]
        guard let map = context.mapping(node, allowed: keys) else { return }
        func flag(_ key: String, _ assign: (Bool) -> Void) {
            if let value = context.read(map.optional(key), { node throws(ScenarioDiagnostic) in try node.bool() }) {
                assign(value)
            }
        }
        flag("send_on_user_changes") { settings.sendOnUserChanges = $0 }
        flag("events_as_string") { settings.eventsAsString = $0 }
        flag("event_time_ms") { settings.eventTimeInMilliseconds = $0 }
        if let type = readChoice(
            map.optional("account_deletion_type"), at: "notifications.account_deletion_type",
            [("account-delete", "account-delete"), ("account-deleted", "account-deleted")], context)
        {
            settings.accountDeletionType = type
        }
        func count(_ key: String, in range: ClosedRange<Int64>, _ assign: (Int) -> Void) {
            guard let node = map.optional(key),
                let value = context.read(node, { node throws(ScenarioDiagnostic) in try node.int() })
            else { return }
            if range.contains(value) {
                assign(Int(value))
            } else {
                context.report(node, "\(key) must be between \(range.lowerBound) and \(range.upperBound)")
            }
        }
        count("max_attempts", in: 1...20) { settings.maxAttempts = $0 }
        count("deliveries_per_event", in: 1...10) { settings.deliveriesPerEvent = $0 }
        if let value = context.read(
            map.optional("retry_delay"), { node throws(ScenarioDiagnostic) in try node.durationMilliseconds() })
        {
            settings.retryDelayMilliseconds = value
        }
        if let value = context.read(
            map.optional("timeout"), { node throws(ScenarioDiagnostic) in try node.durationMilliseconds() })
        {
            settings.timeoutMilliseconds = Int(min(value, 600_000))
        }
    }
}
