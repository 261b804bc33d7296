import Locking

/// One run of the scenario's timeline shared by a fleet (docs/scale-out.md, "What is shared"): a
/// generation that names the run's counters and fired entries, and the mock-clock reading time
/// triggers count from. The first replica to start sets it; the others join it, so `at: 10m` is the same
/// moment on every replica and `POST /mock/reset` at one replica starts a new run for all.
package struct FleetTimelineRun: Sendable, Equatable {
    package var generation: String
    package var startMilliseconds: Int64

    package init(generation: String, startMilliseconds: Int64) {
        self.generation = generation
        self.startMilliseconds = startMilliseconds
    }

    /// A new run from `startMilliseconds` with a random generation.
    package static func new(startMilliseconds: Int64) -> FleetTimelineRun {
        FleetTimelineRun(
            generation: String(UInt64.random(in: 0...UInt64.max), radix: 16), startMilliseconds: startMilliseconds)
    }

    /// The stored form: `<generation> <start>`.
    package var text: String { "\(generation) \(startMilliseconds)" }

    /// nil when `text` is not a run, or its start lies outside the control API's clock range (years
    /// 1970 to 9999; `FleetClockState.range`), where adding a timeline offset could overflow.
    package init?(text: String) {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 32,
            parts[0].allSatisfy({ $0.isHexDigit }), parts[1].count <= 20, let start = Int64(parts[1]),
            FleetClockState.range.contains(start)
        else { return nil }
        self.init(generation: String(parts[0]), startMilliseconds: start)
    }
}

/// A request-triggered entry after the fleet counted one more matching request: the fleet-wide count,
/// and whether this replica fired it (it reached the threshold first; exactly one replica does).
package struct FleetTimelineCount: Sendable, Equatable {
    package var count: Int
    package var claimed: Bool

    package init(count: Int, claimed: Bool) {
        self.count = count
        self.claimed = claimed
    }
}

/// The timeline's share of `LocalFleetState` (a fleet of one, or of mocks in one test process).
final class LocalFleetTimeline: Sendable {
    struct State {
        var run: FleetTimelineRun?
        /// Per generation: request counts and fired entries, in firing order.
        var counts: [String: [Int: Int]] = [:]
        var fired: [String: [Int]] = [:]
        /// Per generation: fired entries whose changes were made (`finishTimelineEntry`).
        var finished: [String: Set<Int>] = [:]

        /// Records entry `index` of `generation` as fired; false when it already was.
        mutating func claim(_ index: Int, generation: String) -> Bool {
            if fired[generation]?.contains(index) == true { return false }
            fired[generation, default: []].append(index)
            return true
        }
    }

    let state = Lock(State())

    func timelineRun(proposing run: FleetTimelineRun, replacing: Bool) -> FleetTimelineRun {
        state.withLock { state in
            if replacing || state.run == nil { state.run = run }
            return state.run ?? run
        }
    }

    func timelineProgress(generation: String) -> (run: FleetTimelineRun?, fired: [Int]) {
        state.withLock { ($0.run, $0.fired[generation] ?? []) }
    }

    func countTimeline(generation: String, entries: [TimelineEngine.Pending]) -> [FleetTimelineCount] {
        state.withLock { state in
            entries.map { entry in
                let count = (state.counts[generation]?[entry.index] ?? 0) + 1
                state.counts[generation, default: [:]][entry.index] = count
                let claimed = count >= entry.threshold && state.claim(entry.index, generation: generation)
                return FleetTimelineCount(count: count, claimed: claimed)
            }
        }
    }

    func claimTimelineEntry(generation: String, index: Int) -> Bool {
        state.withLock { $0.claim(index, generation: generation) }
    }

    func finishTimelineEntry(generation: String, index: Int) {
        state.withLock { _ = $0.finished[generation, default: []].insert(index) }
    }

    func timelineEntriesUnfinished(generation: String, before index: Int) -> Bool {
        state.withLock { state in
            let fired = state.fired[generation] ?? []
            guard let position = fired.firstIndex(of: index) else { return false }
            let finished = state.finished[generation] ?? []
            return fired[..<position].contains { !finished.contains($0) }
        }
    }
}
