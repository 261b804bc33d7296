import Background
import HTTPServer
import SIWACore

/// The whole HTTP surface: `/mock/…` to the control API, everything else to Apple's endpoints.
/// Both share one `AppleIdentityProvider`, so control calls change what the Apple endpoints answer.
///
/// Every request lands in the journal (`GET /mock/requests`); with an admin token every `/mock/`
/// call except `/mock/health` (container health checks carry no secret) needs
/// `Authorization: Bearer <token>` (401 otherwise), while Apple's endpoints stay open.
/// Apple's endpoints run behind the scenario's fault rules and timeline (`FaultInjector`);
/// `/mock/faults` manages the rules.
public struct MockServer: HTTPResponder {
    /// Control-side options of `siwa-mock serve`.
    public struct ControlOptions: Sendable {
        /// `--admin-token`: the shared secret `/mock/` calls must present.
        public var adminToken: String?
        public var scenarioLoader: ControlEndpoints.ScenarioLoader?
        /// Newest journal entries kept.
        public var journalCapacity: Int
        /// Runs notification deliveries and retries; nil: a scheduler of the server's own.
        public var scheduler: BackgroundScheduler?
        /// `--notification-allow`: where notifications may be sent; nil: anywhere.
        public var notificationAllowList: DestinationAllowList?

        public init(
            adminToken: String? = nil, scenarioLoader: ControlEndpoints.ScenarioLoader? = nil,
            journalCapacity: Int = 1000, scheduler: BackgroundScheduler? = nil,
            notificationAllowList: DestinationAllowList? = nil
        ) {
            self.adminToken = adminToken
            self.scenarioLoader = scenarioLoader
            self.journalCapacity = journalCapacity
            self.scheduler = scheduler
            self.notificationAllowList = notificationAllowList
        }
    }

    public let apple: AppleEndpoints
    public let control: ControlEndpoints
    let recorder: JournalRecorder
    let adminToken: String?
    /// The scenario's fault rules and counters (`/mock/faults`).
    public let faults: FaultEngine
    /// The scenario's timeline progress.
    public let timeline: TimelineEngine
    let injector: FaultInjector
    let faultsEndpoints: FaultsEndpoints

    public init(configuration: AppleEndpoints.Configuration, options: ControlOptions = ControlOptions())
        throws(ScenarioKeyError)
    {
        let apple = try AppleEndpoints(configuration: configuration)
        let provider = apple.provider
        let journal = RequestJournal(capacity: options.journalCapacity)
        let notifications = NotificationDispatcher(
            provider: provider, journal: journal, scheduler: options.scheduler ?? BackgroundScheduler(),
            allowList: options.notificationAllowList)
        self.apple = apple
        self.control = ControlEndpoints(
            provider: provider, journal: journal, notifications: notifications, scenarioLoader: options.scenarioLoader)
        self.recorder = JournalRecorder(provider: provider, journal: journal)
        self.adminToken = options.adminToken
        let log = configuration.log
        let scenario = configuration.scenario
        let start = provider.clock.nowMilliseconds
        self.faults = FaultEngine(rules: scenario.faults, seed: scenario.seed, startMilliseconds: start)
        self.timeline = TimelineEngine(entries: scenario.timeline, startMilliseconds: start)
        self.injector = FaultInjector(
            inner: apple, faults: faults, timeline: timeline, log: log, notify: { _ = notifications.send($0) })
        self.faultsEndpoints = FaultsEndpoints(faults: faults, provider: provider)
        // Weak: the provider owns this observer, and the dispatcher holds the provider.
        provider.observeUserEvents { [weak provider, weak notifications] event in
            guard let provider, let notifications, provider.scenario.settings.notifications.sendOnUserChanges
            else { return }
            do {
                notifications.send(try provider.prepareNotifications(for: event))
            } catch {
                log("notification for \(event.kind) of \(event.user.id) not sent: \(error)")
            }
        }
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let prelude = recorder.prelude(for: request)
        let response: HTTPResponse
        if request.path.hasPrefix("/mock/") {
            if let adminToken, request.path != "/mock/health", !Self.presents(adminToken, in: request) {
                response =
                    ControlFailure(
                        status: 401, error: "unauthorized", field: "Authorization",
                        "control calls need Authorization: Bearer <admin token>"
                    ).response
            } else if request.path == "/mock/faults" || request.path.hasPrefix("/mock/faults/") {
                response = faultsEndpoints.respond(to: request)
            } else {
                response = control.respond(to: request)
                restartScriptIfNeeded(after: request, response: response)
            }
        } else {
            response = injector.respond(to: request)
        }
        recorder.record(request, prelude: prelude, response: response)
        return response
    }

    /// Constant-time comparison of the bearer token with the admin token.
    static func presents(_ token: String, in request: HTTPRequest) -> Bool {
        guard let header = request.headers["Authorization"], header.hasPrefix("Bearer ") else { return false }
        let given = Array(header.utf8.dropFirst(7))
        let expected = Array(token.utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(given, expected) { difference |= a ^ b }
        return difference == 0
    }

    /// `POST /mock/reset` and `PUT /mock/scenario` restart the clock settings, fault rules and timeline
    /// with the provider's (initial or new) scenario.
    func restartScriptIfNeeded(after request: HTTPRequest, response: HTTPResponse) {
        guard response.status == 200,
            (request.method == "POST" && request.path == "/mock/reset")
                || (request.method == "PUT" && request.path == "/mock/scenario")
        else { return }
        restartScript(with: apple.provider.initialScenario)
    }

    func restartScript(with scenario: Scenario) {
        if let clock = apple.provider.controllableClock, scenario.clock != ClockSettings() {
            if let start = scenario.clock.startMilliseconds { clock.set(milliseconds: start) }
            clock.setFrozen(scenario.clock.frozen)
        }
        let start = apple.provider.clock.nowMilliseconds
        faults.replace(rules: scenario.faults, seed: scenario.seed, startMilliseconds: start)
        timeline.replace(entries: scenario.timeline, startMilliseconds: start)
    }

    /// Swaps in a new scenario as one step (hot reload): provider state, clock settings, fault rules and
    /// timeline. On error nothing changes.
    public func replaceScenario(_ scenario: Scenario) throws(ProviderChangeError) {
        try apple.provider.replaceScenario(scenario)
        restartScript(with: scenario)
    }
}
