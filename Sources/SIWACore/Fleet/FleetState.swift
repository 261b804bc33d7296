import Synchronization

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
    private let state = Mutex<(counter: Int, snapshot: FleetSnapshot)>((0, FleetSnapshot(stamp: nil, topics: [:])))

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
}
