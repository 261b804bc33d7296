import Background
import HTTP
import JSON
import SIWACore
import ScenarioModel

/// The mock's own API under `/mock/` (JSON in and out; README "control API" section, `/mock/openapi.json`).
/// Apple's endpoints stay in `AppleEndpoints`; both share one `AppleIdentityProvider`, so control
/// calls change what the Apple endpoints answer.
///
/// Errors: `{"error","field"?,"message"}` with 400 (bad field), 404 (unknown user, client, key or
/// path), 405, 409 (contradicts the state), 401 (admin token); nothing is partially applied.
package struct ControlEndpoints: Sendable {
    /// Turns scenario text into a scenario, or positioned error lines (wired by the executable once
    /// the scenario loader exists; without it `PUT /mock/scenario` answers 501).
    /// Loads scenario text; `offLoop`: the caller runs on a background thread and may wait for key
    /// generation.
    package typealias ScenarioLoader =
        @Sendable (_ body: [UInt8], _ offLoop: Bool) -> Result<Scenario, ScenarioLoadFailure>

    package let provider: AppleIdentityProvider
    package let journal: RequestJournal
    package let notifications: NotificationDispatcher
    let scenarioLoader: ScenarioLoader?
    /// Where the active scenario came from (`GET /mock/scenario`).
    package let activeScenario: ActiveScenario
    /// With a shared store: publishes clock and key changes to the other replicas (docs/scale-out.md).
    package let fleet: FleetSync?
    /// The scenario's fault rules: a `tamper:` rule can break a native credential's identity token.
    package let faults: FaultEngine?

    package init(
        provider: AppleIdentityProvider, journal: RequestJournal = RequestJournal(),
        notifications: NotificationDispatcher? = nil, scenarioLoader: ScenarioLoader? = nil,
        activeScenario: ActiveScenario? = nil, fleet: FleetSync? = nil, faults: FaultEngine? = nil
    ) {
        self.fleet = fleet
        self.faults = faults
        self.activeScenario =
            activeScenario
            ?? ActiveScenario(
                .init(
                    source: "built-in", name: provider.scenario.name,
                    text: ScenarioModel.ScenarioLoader.defaultScenarioText,
                    loadedAtMilliseconds: provider.clock.nowMilliseconds))
        self.provider = provider
        self.journal = journal
        self.notifications =
            notifications
            ?? NotificationDispatcher(provider: provider, journal: journal, scheduler: BackgroundScheduler())
        self.scenarioLoader = scenarioLoader
    }

    /// The control API's routes, declared once, with the control surface's facts (`Route.control`)
    /// unless a route says otherwise: health is public and, like the OpenAPI document, answered from
    /// memory (a probe never waits on a shared store); replacing the scenario and rotating keys may wait
    /// for a key generation, so they run in the background-work lane. `restartScript` runs after a
    /// successful reset (true) or scenario replacement (false): the clock settings, fault rules and
    /// timeline start over.
    package func routes(restartScript: @escaping @Sendable (_ byReset: Bool) -> Void = { _ in }) -> [Route] {
        let probe = RouteFacts.control.publicly.fromMemory
        let waits = RouteFacts.control.running(in: .backgroundWork)
        return [
            .control(.get, "/mock/health", probe) { _ in health() },
            .control(.head, "/mock/health", probe) { _ in health() },
            .control(.get, "/mock/openapi.json", .control.fromMemory) { _ in Responses.json(OpenAPIDocument.bytes) },
            .control(.post, "/mock/reset") { _ throws(ControlFailure) in
                try requireStore()
                let (cleared, notificationsCleared) = reset(restartScript: { restartScript(true) })
                return Self.ok(
                    JSONObject([
                        ("status", .string("reset")), ("journal_cleared", .int(Int64(cleared))),
                        ("notifications_cleared", .int(Int64(notificationsCleared))),
                    ]))
            },
            .control(.get, "/mock/scenario") { _ in Responses.json(activeScenario.record.json) },
            .control(.put, "/mock/scenario", waits) { context throws(ControlFailure) in
                let response = try replaceScenario(&context)
                restartScript(false)
                return response
            },
            .control(.post, "/mock/credentials") { context throws(ControlFailure) in
                try withFleetUsers { () throws(ControlFailure) in try credentials(&context) }
            },
            .control(.get, "/mock/credential-state") { context throws(ControlFailure) in
                try withFleetUsers(reading: true) { () throws(ControlFailure) in try credentialState(&context) }
            },
            .control(.get, "/mock/users") { _ throws(ControlFailure) in
                try withFleetUsers(reading: true) { listUsers() }
            },
            .control(.post, "/mock/users") { context throws(ControlFailure) in
                try withFleetUsers { () throws(ControlFailure) in try addUser(&context) }
            },
            .control(.get, "/mock/users/{id}") { context throws(ControlFailure) in
                let name = named(&context)
                return try withFleetUsers(reading: true) { () throws(ControlFailure) in try getUser(name) }
            },
            .control(.patch, "/mock/users/{id}") { context throws(ControlFailure) in
                let name = named(&context)
                return try withFleetUsers { () throws(ControlFailure) in
                    try sharingUser(name) { () throws(ControlFailure) in try patchUser(name, &context) }
                }
            },
            .control(.delete, "/mock/users/{id}") { context throws(ControlFailure) in
                let name = named(&context)
                return try withFleetUsers { () throws(ControlFailure) in
                    try sharingUser(name) { () throws(ControlFailure) in try deleteUser(name) }
                }
            },
            .control(.get, "/mock/clock") { _ in clockState() },
            .control(.post, "/mock/clock") { context throws(ControlFailure) in
                try sharing(.clock) { () throws(ControlFailure) in try changeClock(&context) }
            },
            .control(.get, "/mock/keys") { _ in keyList() },
            .control(.post, "/mock/keys/rotate", waits) { context throws(ControlFailure) in
                try sharing(.keys) { () throws(ControlFailure) in try rotateKeys(&context) }
            },
            .control(.post, "/mock/keys/{kid}/publish") { context throws(ControlFailure) in
                let kid = context.capture("kid")
                return try sharing(.keys) { () throws(ControlFailure) in try changeKey(kid: kid, action: "publish") }
            },
            .control(.post, "/mock/keys/{kid}/retire") { context throws(ControlFailure) in
                let kid = context.capture("kid")
                return try sharing(.keys) { () throws(ControlFailure) in try changeKey(kid: kid, action: "retire") }
            },
            .control(.post, "/mock/keys/{kid}/sign") { context throws(ControlFailure) in
                let kid = context.capture("kid")
                return try sharing(.keys) { () throws(ControlFailure) in try changeKey(kid: kid, action: "sign") }
            },
            .control(.get, "/mock/requests") { context throws(ControlFailure) in try listRequests(&context) },
            .control(.delete, "/mock/requests") { context throws(ControlFailure) in try clearRequests(&context) },
            .control(.post, "/mock/clients/{id}/redirect-uris") { context throws(ControlFailure) in
                try addRedirectURI(context.capture("id"), &context)
            },
            .control(.get, "/mock/app-groups") { _ in listAppGroups() },
            .control(.patch, "/mock/app-groups/{id}") { context throws(ControlFailure) in
                try patchAppGroup(context.capture("id"), &context)
            },
            .control(.get, "/mock/notifications/settings") { _ in notificationSettings() },
            .control(.patch, "/mock/notifications/settings") { context throws(ControlFailure) in
                try patchNotificationSettings(&context)
            },
            .control(.get, "/mock/notifications") { _ in listNotifications() },
            .control(.post, "/mock/notifications") { context throws(ControlFailure) in
                try sendNotification(&context)
            },
        ]
    }

    /// `POST /mock/reset` (and `AppleIDMock.reset()`): the provider back to the scenario's start, then
    /// `restartScript`; a fresh start for the next test, so the journal and notification history go too.
    /// Returns how many journal entries and notification records were dropped.
    package func reset(restartScript: () -> Void) -> (journal: Int, notifications: Int) {
        provider.reset()
        fleet?.forgetUnpublishedChanges()
        restartScript()
        return (journal.clear(), notifications.clearRecords())
    }

    /// The user named in the path (`/mock/users/{id}`: id, email or sub), noted for the journal.
    private func named(_ context: inout RequestContext) -> String {
        let name = context.capture("id")
        context.user = provider.user(named: name)?.id ?? name
        return name
    }

    /// `{"status":"ok"}`, or 503 `{"status":"unhealthy","reason":…}` while the shared state store is
    /// unreachable (docs/scale-out.md).
    func health() -> HTTPResponse {
        if let reason = provider.store.unavailableReason {
            return Responses.json(
                .object(JSONObject([("status", .string("unhealthy")), ("reason", .string("state store: \(reason)"))])),
                status: .serviceUnavailable)
        }
        return Responses.json(.object(JSONObject([("status", .string("ok"))])))
    }

    /// 503 `unavailable` while the shared state store is unreachable (a reset could not clear it).
    func requireStore() throws(ControlFailure) {
        if let reason = provider.store.unavailableReason {
            throw ControlFailure(
                ProviderChangeError(.unavailable, field: "store", StoreUnavailable(reason).description))
        }
    }

    static func ok(_ object: JSONObject, status: HTTPStatus = .ok) -> HTTPResponse {
        Responses.json(.object(object), status: status)
    }
}

/// Why scenario text was refused: every problem, each `file:line:column: message`.
package struct ScenarioLoadFailure: Error, Sendable, Equatable {
    package var errors: [String]

    package init(errors: [String]) {
        self.errors = errors
    }
}
