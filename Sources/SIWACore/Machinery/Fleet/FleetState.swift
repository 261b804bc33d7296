import Locking

/// Runtime state the replicas of one fleet share beyond grants (docs/scale-out.md, "What is shared"):
/// one absolute state per topic, last writer wins, so applying a state twice changes nothing. No I/O
/// here: `LocalFleetState` keeps it in this process (one replica is the whole fleet), the Redis store
/// (`RedisFleetState`) shares it.
package protocol FleetState: AnyObject, Sendable {
    /// Makes `value` the topic's current state; returns its stamp, unique across the fleet.
    @discardableResult
    func publish(_ topic: FleetTopic, value: String) throws(StoreUnavailable) -> String

    /// A stamp that changes with every publication (cheap to poll); nil when nothing was published.
    func currentStamp() throws(StoreUnavailable) -> String?

    /// Every published topic's state and stamp, with the `currentStamp` read in the same step.
    func read() throws(StoreUnavailable) -> FleetSnapshot

    /// Records a user's state after a runtime change (`FleetUserState.text`; "" for a deletion) and
    /// returns the position of the change in the fleet's user-change order.
    @discardableResult
    func publishUser(id: String, text: String) throws(StoreUnavailable) -> FleetCursor

    /// The latest state of every user changed after `cursor` (nil: from the start), oldest change first,
    /// at most `limit`, and the cursor to continue from. A cursor of another epoch (the shared state was
    /// removed by a reset since) reads from the start.
    func userChanges(after cursor: FleetCursor?, limit: Int) throws(StoreUnavailable)
        -> (cursor: FleetCursor?, changes: [(id: String, text: String)])

    /// Counts one request against the fault rules it matched (in the engine's order) fleet-wide and
    /// decides which fires, in one atomic step (`FleetFaultOutcome.decide` has the rule).
    func countFaults(_ rules: [FleetFaultCount]) throws(StoreUnavailable) -> FleetFaultOutcome

    /// Sets the fleet-wide counters of these rules back to zero.
    func resetFaultCounters(_ ruleIDs: [String]) throws(StoreUnavailable)

    /// The fleet's timeline run: `run` when there is none yet (this replica starts it) or when
    /// `replacing` (a reset starts a new run for the fleet), else the run another replica started.
    func timelineRun(proposing run: FleetTimelineRun, replacing: Bool) throws(StoreUnavailable) -> FleetTimelineRun

    /// The fleet's current run (nil: none, e.g. just reset) and the entries of run `generation` that
    /// have fired anywhere in the fleet, in the order they fired (a replica that joins later replays
    /// them in that order: an entry that undoes another's change must come after it).
    func timelineProgress(generation: String) throws(StoreUnavailable) -> (run: FleetTimelineRun?, fired: [Int])

    /// Counts one request against request-triggered entries of run `generation`, in one atomic step:
    /// per entry the fleet-wide count after it, and whether this call fired the entry.
    func countTimeline(generation: String, entries: [TimelineEngine.Pending]) throws(StoreUnavailable)
        -> [FleetTimelineCount]

    /// Claims the firing of entry `index` of run `generation`: true for exactly one caller in the fleet
    /// (that replica notifies; the others follow).
    func claimTimelineEntry(generation: String, index: Int) throws(StoreUnavailable) -> Bool

    /// Records that the replica that fired entry `index` of run `generation` has made (and published) its
    /// changes.
    func finishTimelineEntry(generation: String, index: Int) throws(StoreUnavailable)

    /// Whether an entry of run `generation` that fired before entry `index` has not finished yet
    /// (`finishTimelineEntry`): the user changes of entries are made in the order they fired, also when
    /// two replicas fired them a moment apart.
    func timelineEntriesUnfinished(generation: String, before index: Int) throws(StoreUnavailable) -> Bool
}

/// A position in the fleet's user-change order: a version within an epoch (a random value made when
/// the shared state is first written, so versions never repeat after it was removed).
package struct FleetCursor: Sendable, Equatable {
    package var epoch: String
    package var version: Int64

    package init(epoch: String, version: Int64) {
        self.epoch = epoch
        self.version = version
    }
}

/// What replicas coordinate, one absolute state each.
package enum FleetTopic: String, Sendable, CaseIterable {
    /// The mock clock (`FleetClockState`).
    case clock
    /// The signing key set after a rotation or key change, private keys included (`FleetKeysState`).
    case keys
}

/// The fleet's states at one moment.
package struct FleetSnapshot: Sendable, Equatable {
    package var stamp: String?
    package var topics: [FleetTopic: Published]

    package struct Published: Sendable, Equatable {
        package var stamp: String
        package var value: String

        package init(stamp: String, value: String) {
            self.stamp = stamp
            self.value = value
        }
    }

    package init(stamp: String?, topics: [FleetTopic: Published]) {
        self.stamp = stamp
        self.topics = topics
    }
}

/// The fleet of one: states kept in this process. Tests share one between several mocks to play a fleet.
package final class LocalFleetState: FleetState {
    private let state = Lock<(counter: Int, snapshot: FleetSnapshot)>((0, FleetSnapshot(stamp: nil, topics: [:])))
    private let faultCounters = Lock<[String: (matched: Int, fired: Int)]>([:])
    /// Each changed user's latest state and the version of that change.
    private let users = Lock<(version: Int64, states: [String: (version: Int64, text: String)])>((0, [:]))
    private let timeline = LocalFleetTimeline()

    package init() {}

    package func publish(_ topic: FleetTopic, value: String) -> String {
        state.withLock { state in
            state.counter += 1
            let stamp = String(state.counter)
            state.snapshot.stamp = stamp
            state.snapshot.topics[topic] = .init(stamp: stamp, value: value)
            return stamp
        }
    }

    package func currentStamp() -> String? { state.withLock { $0.snapshot.stamp } }

    package func read() -> FleetSnapshot { state.withLock { $0.snapshot } }

    package func publishUser(id: String, text: String) -> FleetCursor {
        users.withLock { users in
            users.version += 1
            users.states[id] = (users.version, text)
            return FleetCursor(epoch: "local", version: users.version)
        }
    }

    package func userChanges(after cursor: FleetCursor?, limit: Int) -> (
        cursor: FleetCursor?, changes: [(id: String, text: String)]
    ) {
        users.withLock { users in
            guard users.version > 0 else { return (nil, []) }
            let since = cursor?.epoch == "local" ? cursor?.version ?? 0 : 0
            let changed = users.states.filter { $0.value.version > since }.sorted {
                $0.value.version < $1.value.version
            }
            .prefix(max(1, limit))
            let last = changed.last?.value.version ?? max(since, 0)
            return (FleetCursor(epoch: "local", version: last), changed.map { ($0.key, $0.value.text) })
        }
    }

    package func countFaults(_ rules: [FleetFaultCount]) -> FleetFaultOutcome {
        faultCounters.withLock { FleetFaultOutcome.decide(rules, counters: &$0) }
    }

    package func resetFaultCounters(_ ruleIDs: [String]) {
        faultCounters.withLock { counters in for id in ruleIDs { counters[id] = nil } }
    }

    package func timelineRun(proposing run: FleetTimelineRun, replacing: Bool) -> FleetTimelineRun {
        timeline.timelineRun(proposing: run, replacing: replacing)
    }

    package func timelineProgress(generation: String) -> (run: FleetTimelineRun?, fired: [Int]) {
        timeline.timelineProgress(generation: generation)
    }

    package func countTimeline(generation: String, entries: [TimelineEngine.Pending]) -> [FleetTimelineCount] {
        timeline.countTimeline(generation: generation, entries: entries)
    }

    package func claimTimelineEntry(generation: String, index: Int) -> Bool {
        timeline.claimTimelineEntry(generation: generation, index: index)
    }

    package func finishTimelineEntry(generation: String, index: Int) {
        timeline.finishTimelineEntry(generation: generation, index: index)
    }

    package func timelineEntriesUnfinished(generation: String, before index: Int) -> Bool {
        timeline.timelineEntriesUnfinished(generation: generation, before: index)
    }
}
