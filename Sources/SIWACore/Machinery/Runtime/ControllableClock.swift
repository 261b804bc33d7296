import Locking

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
/// Thread-safe: offset and freeze point live behind one lock.
package final class AdjustableClock: ControllableClock {
    struct State {
        var offset: Int64 = 0
        /// The frozen reading, when frozen.
        var frozenAt: Int64?
    }

    private let state = Lock(State())
    private let base: SystemClock

    package init(base: SystemClock = SystemClock()) {
        self.base = base
    }

    package var nowMilliseconds: Int64 {
        state.withLock { $0.frozenAt ?? (base.nowMilliseconds + $0.offset) }
    }

    package func advance(milliseconds: Int64) {
        state.withLock { state in
            if let frozen = state.frozenAt {
                state.frozenAt = frozen + milliseconds
            } else {
                state.offset += milliseconds
            }
        }
    }

    package func set(milliseconds: Int64) {
        let real = base.nowMilliseconds
        state.withLock { state in
            if state.frozenAt != nil { state.frozenAt = milliseconds } else { state.offset = milliseconds - real }
        }
    }

    package func setFrozen(_ frozen: Bool) {
        let real = base.nowMilliseconds
        state.withLock { state in
            if frozen {
                if state.frozenAt == nil { state.frozenAt = real + state.offset }
            } else if let at = state.frozenAt {
                state.offset = at - real
                state.frozenAt = nil
            }
        }
    }

    package var isFrozen: Bool { state.withLock { $0.frozenAt != nil } }

    package func reset(initialMilliseconds: Int64) {
        state.withLock { $0 = State() }
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
