import Background
import EventLoop
import HTTP
import SIWACore
import ScenarioModel

/// One running mock's pieces, wired once for every host: `siwa-mock serve` and the in-process
/// `SIWAMockTesting` library both build their mock here, so both run the same server with the same
/// background work (the signing-key supply for `POST /mock/keys/rotate`, the maintenance tick,
/// notification deliveries) on one `BackgroundScheduler` per mock.
///
/// The host binds its own listeners (`EventLoopServer`) with a `LateBoundResponder`, since the public
/// URL in the discovery document depends on the port the kernel picked, then makes the mock and
/// installs it.
package final class MockHost: Sendable {
    /// What a host decides, in the two configurations the layers own: `endpoints` for Apple's endpoints
    /// (public URL, scenario, log, store) and `control` for the control API (admin token, CA certificate,
    /// notification allow-list, the scenario's origin, fleet state and journal, loopback guard). Nothing is
    /// copied between them: the host fills in only what is the same for every host — the mock clock the
    /// scenario asks for, the scenario loader, the background scheduler and the store's worker threads.
    package struct Settings: Sendable {
        package var endpoints: AppleEndpoints.Configuration
        package var control: MockServer.ControlOptions

        package init(endpoints: AppleEndpoints.Configuration, control: MockServer.ControlOptions = .init()) {
            self.endpoints = endpoints
            self.control = control
        }
    }

    package let mock: MockServer
    package let scheduler: BackgroundScheduler
    /// RSA keys for `POST /mock/keys/rotate` and key-less scenarios sent over HTTP, made on the
    /// scheduler's thread, never on an event loop.
    package let keySupply: SigningKeySupply
    /// With a shared store: polls the fleet's clock, keys and users every 250 ms (`FleetSync`).
    let fleetScheduler: BackgroundScheduler?
    /// `--shared-journal`: flushed once more when the host stops.
    let fleetJournal: FleetJournalWriter?

    /// Makes the mock and starts its background work.
    /// - Throws: `ScenarioKeyError` when a scenario key cannot be used.
    package init(_ settings: Settings) throws(ScenarioKeyError) {
        let log = settings.endpoints.log
        let scheduler = BackgroundScheduler()
        let keySupply = SigningKeySupply()
        if !scheduler.repeatEvery(250, { keySupply.refill() }) {
            log("cannot start the key supply thread: key rotation over the control API will be refused")
        }
        var endpoints = settings.endpoints
        endpoints.clock = Self.clock(for: endpoints.scenario.clock)
        var control = settings.control
        control.scenarioLoader = { Self.loadScenario(body: $0, keySupply: keySupply, offLoop: $1) }
        control.scheduler = scheduler
        control.storeWorkers = endpoints.storeFactory == nil ? nil : BackgroundScheduler(maximumThreads: 8)
        mock = try MockServer(configuration: endpoints, options: control)
        mock.apple.provider.takeSigningKeys(from: keySupply)
        // Its own scheduler: on the shared one, a key refill (up to 4 RSA generations) would hold the
        // only thread and delay polls past the second that issue #16 allows.
        fleetScheduler = mock.fleet.map { _ in BackgroundScheduler(maximumThreads: 1) }
        if let fleet = mock.fleet, let fleetScheduler {
            Self.follow(fleet, timeline: mock, on: fleetScheduler, log: log)
        }
        if let writer = control.fleetJournal, !writer.start(on: fleetScheduler ?? scheduler, log: log) {
            log(
                "cannot start the fleet journal thread: GET /mock/requests?scope=fleet shows no entries of this replica"
            )
        }
        let ticker = MaintenanceTicker(
            provider: mock.apple.provider,
            onCollected: { log("maintenance: dropped \($0) expired codes and access tokens") })
        if !ticker.start(on: scheduler) {
            log("expired codes are collected only under load: cannot start a background thread")
        }
        self.scheduler = scheduler
        self.keySupply = keySupply
        self.fleetJournal = control.fleetJournal
    }

    /// Takes the fleet's current clock, keys, users and timeline run now (a replica joining after a
    /// rotation signs with the rotated key from its first request), then polls for changes every 250 ms on
    /// `scheduler`. A store outage is reported by `/mock/health`; polling resumes with the store.
    static func follow(
        _ fleet: FleetSync, timeline mock: MockServer, on scheduler: BackgroundScheduler,
        log: @escaping @Sendable (String) -> Void
    ) {
        do throws(StoreUnavailable) {
            try fleet.pull()
            try fleet.pullUsers()
            try mock.pollTimeline()
        } catch {
            log("fleet: cannot read the shared clock, keys, users and timeline yet (\(error)); retrying every 250 ms")
        }
        let poll: @Sendable () -> Void = {
            _ = try? fleet.pull()
            _ = try? fleet.pullUsers()
            _ = try? mock.pollTimeline()
        }
        if !scheduler.repeatEvery(250, poll) {
            log("cannot start the fleet thread: clock and key changes of other replicas will not be seen")
        }
    }

    /// Stops the background work, giving jobs in flight (the one key being made, a notification
    /// attempt) up to `milliseconds` to finish. A key refill stops after its current key, so one RSA
    /// generation (at most about half a second) is the longest wait in practice.
    /// - Returns: whether every job had finished in time.
    @discardableResult
    package func stop(waitingMilliseconds milliseconds: Int64 = 5000) -> Bool {
        keySupply.stop()
        scheduler.stop()
        fleetScheduler?.stop()
        let fleetIdle = fleetScheduler?.waitUntilIdle(timeoutMilliseconds: milliseconds) ?? true
        // The entries of the last 100 ms: a replica stopping (compose down, CI teardown) keeps them.
        _ = try? fleetJournal?.flush()
        return scheduler.waitUntilIdle(timeoutMilliseconds: milliseconds) && fleetIdle
    }

    /// The mock clock a scenario asks for: real time, or starting at `clock.start`, frozen or running.
    package static func clock(for settings: ClockSettings) -> AdjustableClock {
        let clock = AdjustableClock()
        if let start = settings.startMilliseconds { clock.set(milliseconds: start) }
        if settings.frozen { clock.setFrozen(true) }
        return clock
    }

    /// `PUT /mock/scenario`: scenario text from a request body. It reads no file: `pem_file:` is a
    /// positioned error (a client could otherwise probe for files or publish any key on the host). Keys
    /// without a PEM come from `keySupply`; generated here only `offLoop` (a background thread).
    @Sendable package static func loadScenario(
        body bytes: [UInt8], keySupply: SigningKeySupply? = nil, offLoop: Bool = false
    ) -> Result<Scenario, ScenarioLoadFailure> {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(ScenarioLoadFailure(errors: ["scenario:1:1: the body is not UTF-8 text"]))
        }
        var loader = ScenarioLoader(readFile: nil)
        loader.ruleTargets = AppleEndpoints.ruleTargets
        loader.keySupply = keySupply
        loader.keySupplyMayMake = offLoop
        do {
            return .success(try loader.load(text, file: "scenario"))
        } catch {
            return .failure(ScenarioLoadFailure(errors: error.diagnostics.map(\.description)))
        }
    }
}
