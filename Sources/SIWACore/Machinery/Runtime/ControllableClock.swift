import Locking
import Synchronization

/// A clock the control API can move: advance, set, freeze and thaw (`/mock/clock`, docs/control-api.md).
package protocol ControllableClock: SIWAClock {
    /// Moves time by `milliseconds` (negative goes back).
    func advance(milliseconds: Int64)
    /// Jumps to an absolute time (milliseconds since the epoch).
    func set(milliseconds: Int64)
    /// Stops time at its current value (`true`) or lets it run again from there (`false`).
    func setFrozen(_ frozen: Bool)
    var isFrozen: Bool { get }
    /// Back to the state at start; `initialMilliseconds` is the time the provider was built at.
    func reset(initialMilliseconds: Int64)
}

/// The wall clock plus an adjustable offset, optionally frozen: what `siwa-mock serve` runs on.
///
/// Thread-safe: offset and freeze point live behind one lock; every change also publishes them in one
/// atomic word (`reading`), so reading the clock, several times a request, takes no lock.
package final class AdjustableClock: ControllableClock {
    struct State {
        var offset: Int64 = 0
        /// The frozen reading, when frozen.
        var frozenAt: Int64?
    }

    private let state = Lock(State())
    /// `state` in one word, stored after every change with the lock held: the frozen reading or the
    /// offset, shifted left one bit, with the low bit set when frozen (`publish`).
    private let reading = Atomic<Int64>(0)
    private let base: SystemClock

    package init(base: SystemClock = SystemClock()) {
        self.base = base
    }

    /// Readings and offsets are kept within ±2^61 ms (±73 million years), so one bit is free for the flag.
    static let bound: Int64 = 1 << 61

    private func publish(_ state: State) {
        let clamp = { (value: Int64) in min(max(value, -Self.bound), Self.bound) }
        let word = state.frozenAt.map { clamp($0) << 1 | 1 } ?? clamp(state.offset) << 1
        reading.store(word, ordering: .releasing)
    }

    package var nowMilliseconds: Int64 {
        let word = reading.load(ordering: .acquiring)
        return word & 1 == 1 ? word >> 1 : base.nowMilliseconds &+ (word >> 1)
    }

    package func advance(milliseconds: Int64) {
        state.withLock { state in
            if let frozen = state.frozenAt {
                state.frozenAt = frozen &+ milliseconds
            } else {
                state.offset = state.offset &+ milliseconds
            }
            publish(state)
        }
    }

    package func set(milliseconds: Int64) {
        let real = base.nowMilliseconds
        state.withLock { state in
            if state.frozenAt != nil { state.frozenAt = milliseconds } else { state.offset = milliseconds &- real }
            publish(state)
        }
    }

    package func setFrozen(_ frozen: Bool) {
        let real = base.nowMilliseconds
        state.withLock { state in
            if frozen {
                if state.frozenAt == nil { state.frozenAt = real &+ state.offset }
            } else if let at = state.frozenAt {
                state.offset = at &- real
                state.frozenAt = nil
            }
            publish(state)
        }
    }

    package var isFrozen: Bool { reading.load(ordering: .acquiring) & 1 == 1 }

    package func reset(initialMilliseconds: Int64) {
        state.withLock {
            $0 = State()
            publish($0)
        }
    }
}

/// A `ManualClock` is always frozen; thawing it is a no-op (tests keep full control of time).
extension ManualClock: ControllableClock {
    package func set(milliseconds: Int64) {
        set(seconds: 0)
        advance(milliseconds: milliseconds)
    }
    package func setFrozen(_ frozen: Bool) {}
    package var isFrozen: Bool { true }
    package func reset(initialMilliseconds: Int64) { set(milliseconds: initialMilliseconds) }
}
