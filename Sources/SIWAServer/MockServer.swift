import Background
import EventLoop
import HTTP
import Mailbox
import SIWACore
import ScenarioModel

/// The whole HTTP surface: Apple's endpoints, the control API under `/mock/` and, with TLS, the local
/// CA certificate — one route table behind one `RequestPipeline`. Apple's endpoints and the control
/// API share one `AppleIdentityProvider`, so control calls change what the Apple endpoints answer.
///
/// Every request lands in the journal (`GET /mock/requests`) with its outcome and, for a refusal, the
/// reason; with an admin token every `/mock/` route except the public ones (`/mock/health`, the CA
/// certificate) needs `Authorization: Bearer <token>` (401 otherwise), while Apple's endpoints stay
/// open and run behind the scenario's fault rules and timeline (`/mock/faults` manages the rules).
package struct MockServer: HTTPResponder {
    /// Control-side options of `siwa-mock serve`.
    package struct ControlOptions: Sendable {
        /// `--admin-token`: the shared secret `/mock/` calls must present.
        package var adminToken: String?
        package var scenarioLoader: ControlEndpoints.ScenarioLoader?
        /// Newest journal entries kept.
        package var journalCapacity: Int
        /// With TLS: the local CA certificate, served at `GET /mock/tls/ca.pem` without the admin token
        /// (so a CI job can fetch it with curl from a service container).
        package var caCertificatePEM: String?
        /// Runs notification deliveries and retries, and the control calls that wait for background work
        /// (`RouteFacts.Lane.backgroundWork`); nil: a scheduler of the server's own.
        package var scheduler: BackgroundScheduler?
        /// `--notification-allow`: where notifications may be sent; nil: anywhere.
        package var notificationAllowList: DestinationAllowList?
        /// Where the starting scenario came from and its text (`GET /mock/scenario`); nil: the built-in one.
        package var scenarioOrigin: (source: String, text: String)?
        /// Bounds of the relay's mailbox (`/mock/mail`, docs/limits.md).
        package var mailboxLimits = Mailbox.Limits()
        /// Threads that serve requests waiting on a shared store, so event loops never block on it;
        /// nil answers every request on its event loop (the in-memory store never waits).
        package var storeWorkers: BackgroundScheduler?
        /// With a shared store: the fleet's clock and signing keys (`FleetSync`); nil keeps them local.
        package var fleetState: (any FleetState)?
        /// `--shared-journal`: copies every journal entry to the fleet journal; nil keeps the journal
        /// per replica (the host flushes it, `MockHost`).
        package var fleetJournal: FleetJournalWriter?
        /// Without an admin token on a loopback address: refuse `/mock/` requests whose `Host` is not a
        /// loopback name or whose `Origin` is another site (`LoopbackGuard`); nil trusts every request.
        package var loopbackGuard: LoopbackGuard?

        package init(
            adminToken: String? = nil, scenarioLoader: ControlEndpoints.ScenarioLoader? = nil,
            journalCapacity: Int = 1000, caCertificatePEM: String? = nil, scheduler: BackgroundScheduler? = nil,
            notificationAllowList: DestinationAllowList? = nil, scenarioOrigin: (source: String, text: String)? = nil,
            storeWorkers: BackgroundScheduler? = nil, fleetState: (any FleetState)? = nil,
            fleetJournal: FleetJournalWriter? = nil, loopbackGuard: LoopbackGuard? = nil
        ) {
            self.loopbackGuard = loopbackGuard
            self.fleetJournal = fleetJournal
            self.fleetState = fleetState
            self.storeWorkers = storeWorkers
            self.scenarioOrigin = scenarioOrigin
            self.adminToken = adminToken
            self.scenarioLoader = scenarioLoader
            self.journalCapacity = journalCapacity
            self.caCertificatePEM = caCertificatePEM
            self.scheduler = scheduler
            self.notificationAllowList = notificationAllowList
        }
    }

    package let apple: AppleEndpoints
    package let control: ControlEndpoints
    /// The scenario's fault rules and counters (`/mock/faults`).
    package let faults: FaultEngine
    /// The scenario's timeline progress.
    package let timeline: TimelineEngine
    /// Runs the timeline, with the fleet's run when there is a shared store.
    let timelineStage: TimelineStage
    /// What the private email relay delivered and refused (`/mock/mail`; fed by `RelaySMTPService`).
    package let mailbox: Mailbox
    /// Publishes and applies the fleet's clock and keys; nil without a shared store.
    package let fleet: FleetSync?
    /// Every route of every surface, behind the one chain.
    package private(set) var pipeline: RequestPipeline

    package init(configuration: AppleEndpoints.Configuration, options: ControlOptions = ControlOptions())
        throws(ScenarioKeyError)
    {
        let apple = try AppleEndpoints(configuration: configuration)
        let provider = apple.provider
        let journal = RequestJournal(capacity: options.journalCapacity, fleet: options.fleetJournal)
        let scheduler = options.scheduler ?? BackgroundScheduler()
        let scenario = configuration.scenario
        let start = provider.clock.nowMilliseconds
        let faults = FaultEngine(
            rules: scenario.faults, seed: scenario.seed, startMilliseconds: start, fleet: options.fleetState)
        self.faults = faults
        let notifications = NotificationDispatcher(
            provider: provider, journal: journal, scheduler: scheduler, allowList: options.notificationAllowList,
            faults: faults)
        self.apple = apple
        let log = configuration.log
        let fleet = options.fleetState.map { FleetSync(state: $0, provider: provider, log: log) }
        self.fleet = fleet
        self.control = ControlEndpoints(
            provider: provider, journal: journal, notifications: notifications, scenarioLoader: options.scenarioLoader,
            activeScenario: options.scenarioOrigin.map { origin in
                ActiveScenario(
                    .init(
                        source: origin.source, name: configuration.scenario.name, text: origin.text,
                        loadedAtMilliseconds: provider.clock.nowMilliseconds))
            }, fleet: fleet, faults: faults)
        self.timeline = TimelineEngine(entries: scenario.timeline, startMilliseconds: start)
        let mailbox = Mailbox(limits: options.mailboxLimits)
        self.mailbox = mailbox
        let timelineStage = TimelineStage(
            engine: timeline, provider: provider, faults: faults, fleet: options.fleetState,
            background: options.storeWorkers, log: log, notify: { _ = notifications.send($0) },
            publishKeys: { () throws(StoreUnavailable) in try fleet?.publish(.keys, undo: {}) })
        self.timelineStage = timelineStage
        let stage = FaultStage(provider: provider, faults: faults, timeline: timelineStage, log: log)
        var table = RouteTable(apple.routes)
        // Placeholder until every stored property is set: the restart hook captures the finished server.
        pipeline = RequestPipeline(table: table, provider: provider, log: log)
        let server = self
        let access = options.adminToken.map(AdminAccess.init(token:))
        let restart: @Sendable (Bool) -> Void = { server.restartScript(with: provider.initialScenario, byReset: $0) }
        for route in control.routes(restartScript: restart)
            + FaultsEndpoints(faults: faults, provider: provider).routes + DashboardEndpoints(access: access).routes
            + MailEndpoints(mailbox: mailbox, provider: provider, journal: journal, scheduler: scheduler).routes
            + MailpitEndpoints(mailbox: mailbox).routes
        {
            table.add(route)
        }
        if let pem = options.caCertificatePEM {
            for method in [HTTPMethod.get, .head] {
                table.add(Route(method, Self.caCertificatePath, .control.publicly) { _ in Self.certificate(pem) })
            }
        }
        pipeline = RequestPipeline(
            table: table, provider: provider, access: access, faults: stage,
            recorder: JournalRecorder(provider: provider, journal: journal), log: log,
            storeWorkers: options.storeWorkers, backgroundWaits: scheduler, loopbackGuard: options.loopbackGuard)
        // Weak: the provider owns this observer, and the dispatcher holds the provider.
        provider.observeUserEvents { [weak provider, weak notifications] event in
            guard let provider, let notifications, provider.scenario.settings.notifications.sendOnUserChanges
            else { return }
            do {
                let prepared = try provider.prepareNotifications(for: event)
                if prepared.isEmpty { log(event.nobodyNotifiedReason(in: provider.scenario)) }
                notifications.send(prepared)
            } catch {
                log("notification for \(event.kind) of \(event.user.id) not sent: \(error)")
            }
        }
    }

    package func respond(to request: consuming HTTPRequest) -> HTTPResponse {
        pipeline.respond(to: request)
    }

    /// Where the local CA certificate is served with TLS.
    package static let caCertificatePath = "/mock/tls/ca.pem"

    static func certificate(_ pem: String) -> HTTPResponse {
        HTTPResponse(
            status: .ok,
            headers: HTTPHeaders([("Content-Type", "application/x-pem-file"), ("Cache-Control", "no-store")]),
            body: Array(pem.utf8))
    }

    /// Restarts the clock settings, fault rules and timeline with `scenario` (after `POST /mock/reset`
    /// and `PUT /mock/scenario`, with the provider's initial or new scenario). With a shared store, a
    /// reset starts a new timeline run for the fleet; a replaced scenario's timeline is this replica's own.
    /// A reset also empties the relay mailbox and its per-day counts, so the next test starts with no mail
    /// and a fresh 100-a-day allowance (docs/control-api.md, docs/relay-mail.md).
    package func restartScript(with scenario: Scenario, byReset: Bool = true) {
        if byReset { mailbox.clear(resettingCounters: true) }
        if let clock = apple.provider.controllableClock, scenario.clock != ClockSettings() {
            if let start = scenario.clock.startMilliseconds { clock.set(milliseconds: start) }
            clock.setFrozen(scenario.clock.frozen)
        }
        let start = apple.provider.clock.nowMilliseconds
        faults.replace(rules: scenario.faults, seed: scenario.seed, startMilliseconds: start)
        timeline.replace(entries: scenario.timeline, startMilliseconds: start)
        timelineStage.restarted(byReset: byReset)
    }

    /// The fleet's timeline, polled with the fleet's clock, keys and users (`MockHost`): follows runs and
    /// entries other replicas started and fired, and fires due time triggers without requests.
    package func pollTimeline() throws(StoreUnavailable) {
        try timelineStage.poll()
    }

    /// Swaps in a new scenario as one step (hot reload): provider state, clock settings, fault rules and
    /// timeline. On error nothing changes.
    package func replaceScenario(_ scenario: Scenario, source: String? = nil, text: String? = nil)
        throws(ProviderChangeError)
    {
        try apple.provider.replaceScenario(scenario)
        restartScript(with: scenario, byReset: false)
        if let source, let text {
            control.activeScenario.replace(
                with: .init(
                    source: source, name: scenario.name, text: text,
                    loadedAtMilliseconds: apple.provider.clock.nowMilliseconds))
        }
    }
}
