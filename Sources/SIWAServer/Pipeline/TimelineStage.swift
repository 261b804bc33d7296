import Background
import Glibc
import Locking
import SIWACore
import ScenarioModel

/// The scenario's timeline around Apple's endpoints (`FaultStage` runs it): due time triggers before a
/// request, request triggers after it.
///
/// Alone, this replica's `TimelineEngine` decides and applies. With a shared store the fleet does
/// (docs/scale-out.md, "What is shared"): one run for every replica (the start time triggers count
/// from), request triggers counted fleet-wide, and each entry fired by exactly one replica, which
/// applies it and notifies; every other replica follows (applies it without notifying) when it sees
/// the entry fired, at its next request or poll (every 250 ms, `poll`). A request answered on an event
/// loop never waits on the store: its counting runs on `background`.
final class TimelineStage: Sendable {
    enum Membership: Sendable, Equatable {
        /// No fleet, or this replica's scenario was replaced (`PUT /mock/scenario`): its own timeline.
        case local
        /// Not in the fleet's run yet: entries wait until it joins (at the next request or poll).
        case joining
        case joined(FleetTimelineRun)
    }

    let engine: TimelineEngine
    let provider: AppleIdentityProvider
    let faults: FaultEngine
    let fleet: (any FleetState)?
    /// Runs the fleet's counting for requests answered on an event loop; nil runs it on the caller.
    let background: BackgroundScheduler?
    let log: @Sendable (String) -> Void
    /// Delivers notifications from `notify` actions and user changes' events.
    let notify: @Sendable ([PreparedNotification]) -> Void
    /// Publishes this replica's key set to the fleet after an entry it led changed keys.
    let publishKeys: @Sendable () throws(StoreUnavailable) -> Void
    private let membership: Lock<Membership>

    init(
        engine: TimelineEngine, provider: AppleIdentityProvider, faults: FaultEngine, fleet: (any FleetState)?,
        background: BackgroundScheduler?, log: @escaping @Sendable (String) -> Void,
        notify: @escaping @Sendable ([PreparedNotification]) -> Void,
        publishKeys: @escaping @Sendable () throws(StoreUnavailable) -> Void = {}
    ) {
        self.publishKeys = publishKeys
        self.engine = engine
        self.provider = provider
        self.faults = faults
        self.fleet = fleet
        self.background = background
        self.log = log
        self.notify = notify
        membership = Lock(fleet == nil ? .local : .joining)
    }

    /// Where this replica's timeline stands with the fleet.
    var currentMembership: Membership { membership.withLock { $0 } }

    /// Before a request: fires the time-triggered entries that are due. `mayWait`: the caller may wait
    /// on the shared store (not an event loop); otherwise the fleet's entries wait for `poll` (claiming
    /// an entry is a store round trip).
    func beforeRequest(nowMilliseconds now: Int64, mayWait: Bool) {
        switch fleetRun(mayWait: mayWait) {
        case .local:
            apply(engine.dueEntries(nowMilliseconds: now), leading: true)
        case .joined(let run):
            if mayWait { settleDue(nowMilliseconds: now, run: run) }
        case .joining:
            return
        }
    }

    /// After a request was answered: counts it against request-triggered entries.
    /// `user` is asked only when a pending trigger names a user, before any lock is taken (it may ask the store).
    func afterRequest(_ facts: RequestFacts, user resolveUser: () -> String?, mayWait: Bool) {
        guard engine.hasRequestTriggers else { return }
        let resolved = engine.requestTriggersNameUsers ? resolveUser() : nil
        let user = { resolved }
        if fleet == nil || currentMembership == .local {
            let actions = engine.recordRequest(facts, resolveUser: user)
            if !actions.isEmpty { provider.apply(actions, faults: faults, send: notify).forEach(log) }
            return
        }
        let pending = engine.pendingEntries(matching: facts, resolveUser: user)
        guard !pending.isEmpty else { return }
        guard !mayWait, let background else {
            count(pending)
            return
        }
        if !background.schedule({ [self] in count(pending) }) {
            log("timeline: a \(facts.method) \(facts.path) was not counted: no background thread")
        }
    }

    /// Every 250 ms on the fleet's thread (`MockHost`): joins the fleet's run, follows a new run started
    /// by a reset elsewhere, follows entries other replicas fired, and fires due time triggers even
    /// without requests.
    func poll() throws(StoreUnavailable) {
        guard let fleet, engine.hasEntries else { return }
        guard case .joined(let run) = try join() else { return }
        let progress = try fleet.timelineProgress(generation: run.generation)
        if let newer = progress.run, newer.generation != run.generation {
            adopt(newer)
            return
        }
        for index in progress.fired {
            if let fired = engine.markFired(index) { apply([fired], leading: false) }
        }
        settleDue(nowMilliseconds: provider.clock.nowMilliseconds, run: run)
    }

    /// After `TimelineEngine.replace`: a reset starts a new run for the whole fleet; a replaced scenario
    /// leaves this replica's timeline its own (docs/scale-out.md, "Not shared").
    func restarted(byReset: Bool) {
        guard let fleet else { return }
        guard byReset else {
            membership.withLock { $0 = .local }
            return
        }
        let run = FleetTimelineRun.new(startMilliseconds: engine.startMilliseconds)
        do throws(StoreUnavailable) {
            let started = try fleet.timelineRun(proposing: run, replacing: true)
            membership.withLock { $0 = .joined(started) }
        } catch {
            membership.withLock { $0 = .joining }
            log("timeline: cannot start the fleet's new run yet (\(error)); entries wait until it can")
        }
    }

    // MARK: - Fleet steps

    /// The run to follow; joins first when it may wait.
    private func fleetRun(mayWait: Bool) -> Membership {
        let current = currentMembership
        guard current == .joining, mayWait, engine.hasEntries else { return current }
        do throws(StoreUnavailable) {
            return try join()
        } catch {
            log("timeline: cannot join the fleet's run yet (\(error)); entries wait until it can")
            return .joining
        }
    }

    /// Joins the fleet's run (started by the first replica; this one's start if it is first).
    private func join() throws(StoreUnavailable) -> Membership {
        let current = currentMembership
        guard current == .joining, let fleet else { return current }
        let proposed = FleetTimelineRun.new(startMilliseconds: engine.startMilliseconds)
        let run = try fleet.timelineRun(proposing: proposed, replacing: false)
        adopt(run)
        return .joined(run)
    }

    /// Follows `run`: the script starts over from the run's start unless this replica started it.
    private func adopt(_ run: FleetTimelineRun) {
        membership.withLock { membership in
            if engine.startMilliseconds != run.startMilliseconds || membership != .joining {
                engine.restart(startMilliseconds: run.startMilliseconds)
            }
            membership = .joined(run)
        }
        log("timeline: following the fleet's run \(run.generation)")
    }

    /// How long a replica that fired an entry waits for the entries fired before it to be finished
    /// elsewhere (a replica stopped between its claim and its changes holds the others this long).
    static let earlierEntriesWait = (polls: 100, microsecondsApart: UInt32(10_000))

    /// Waits, at most one second, until every entry that fired before entry `index` has made its changes
    /// (another replica may have fired it a moment before): its user changes are then made on theirs, as
    /// on a single replica (found by the differential test:
    /// Tests/ScaleOut/sequences/timeline-entries-due-together-fired-by-two-replicas.json).
    private func waitForEarlierEntries(before index: Int, in run: FleetTimelineRun) {
        guard let fleet else { return }
        for _ in 0..<Self.earlierEntriesWait.polls {
            do throws(StoreUnavailable) {
                guard try fleet.timelineEntriesUnfinished(generation: run.generation, before: index) else { return }
            } catch {
                log("timeline: entry \(index) does not wait for earlier entries: \(error)")
                return
            }
            usleep(Self.earlierEntriesWait.microsecondsApart)
        }
        log("timeline: entry \(index) waited 1 s for earlier entries to finish at other replicas; applying it now")
    }

    /// Marks entry `index` finished for the fleet (entries fired after it stop waiting for it).
    private func finish(_ index: Int, in run: FleetTimelineRun) {
        do throws(StoreUnavailable) {
            try fleet?.finishTimelineEntry(generation: run.generation, index: index)
        } catch {
            log("timeline: entry \(index) is applied but the fleet cannot be told (\(error)); later entries wait 1 s")
        }
    }

    /// Fires due time triggers, each claimed fleet-wide: the claimant leads, the others follow. When the
    /// store cannot be reached, the entry and those after it wait for the next try.
    private func settleDue(nowMilliseconds now: Int64, run: FleetTimelineRun) {
        guard let fleet else { return }
        let due = engine.dueEntries(nowMilliseconds: now)
        for (position, entry) in due.enumerated() {
            do throws(StoreUnavailable) {
                let leading = try fleet.claimTimelineEntry(generation: run.generation, index: entry.index)
                apply([entry], leading: leading, run: run)
            } catch {
                for waiting in due[position...] { engine.unmarkFired(waiting.index) }
                log("timeline: entry \(entry.index) waits: the shared store cannot settle who fires it (\(error))")
                return
            }
        }
    }

    /// Counts one request fleet-wide; entries that reached their count fire here (led by the replica
    /// whose request reached it).
    private func count(_ pending: [TimelineEngine.Pending]) {
        guard let fleet, case .joined(let run) = fleetRun(mayWait: true) else {
            log("timeline: a request was not counted: not in the fleet's run yet")
            return
        }
        do throws(StoreUnavailable) {
            let counts = try fleet.countTimeline(generation: run.generation, entries: pending)
            for (entry, counted) in zip(pending, counts) where counted.count >= entry.threshold {
                if let fired = engine.markFired(entry.index) { apply([fired], leading: counted.claimed, run: run) }
            }
        } catch {
            log("timeline: a request was not counted: \(error)")
        }
    }

    private func apply(_ entries: [TimelineEngine.Fired], leading: Bool, run: FleetTimelineRun? = nil) {
        for entry in entries {
            let shared = fleet != nil && currentMembership != .local
            let role: TimelineRole = shared ? (leading ? .leading : .following) : .alone
            if role == .leading, let run, entry.actions.contains(where: \.changesUsers) {
                waitForEarlierEntries(before: entry.index, in: run)
            }
            provider.apply(entry.actions, faults: faults, send: notify, role: role).forEach(log)
            if role == .leading, let run { finish(entry.index, in: run) }
            guard role == .leading, entry.actions.contains(where: \.changesKeys) else { continue }
            do throws(StoreUnavailable) {
                try publishKeys()
            } catch {
                log("timeline: entry \(entry.index) changed keys here, but the fleet cannot be told: \(error)")
            }
        }
    }
}
