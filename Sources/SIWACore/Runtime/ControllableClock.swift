import Synchronization

/// A clock the control API can move: advance, set, freeze and thaw (design.md §2.7).
public protocol ControllableClock: SIWAClock {
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
public final class AdjustableClock: ControllableClock {
    struct State {
        var offset: Int64 = 0
        /// The frozen reading, when frozen.
        var frozenAt: Int64?
    }

    private let state = Mutex(State())
    private let base: SystemClock

    public init(base: SystemClock = SystemClock()) {
        self.base = base
    }

    public var nowMilliseconds: Int64 {
        state.withLock { $0.frozenAt ?? (base.nowMilliseconds + $0.offset) }
    }

    public func advance(milliseconds: Int64) {
        state.withLock { state in
            if let frozen = state.frozenAt {
                state.frozenAt = frozen + milliseconds
            } else {
                state.offset += milliseconds
            }
        }
    }

    public func set(milliseconds: Int64) {
        let real = base.nowMilliseconds
        state.withLock { state in
            if state.frozenAt != nil { state.frozenAt = milliseconds } else { state.offset = milliseconds - real }
        }
    }

    public func setFrozen(_ frozen: Bool) {
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

    public var isFrozen: Bool { state.withLock { $0.frozenAt != nil } }

    public func reset(initialMilliseconds: Int64) {
        state.withLock { $0 = State() }
    }
}

/// A `ManualClock` is always frozen; thawing it is a no-op (tests keep full control of time).
extension ManualClock: ControllableClock {
    public func set(milliseconds: Int64) {
        set(seconds: 0)
        advance(milliseconds: milliseconds)
    }
    public func setFrozen(_ frozen: Bool) {}
    public var isFrozen: Bool { true }
    public func reset(initialMilliseconds: Int64) { set(milliseconds: initialMilliseconds) }
}
