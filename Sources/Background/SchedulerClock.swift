import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// The time source of a `BackgroundScheduler`: monotonic milliseconds, plus a way to learn that a
/// manual clock moved (so tests advance time instead of sleeping; the control API's clock,
/// docs/control-api.md).
package protocol SchedulerClock: Sendable {
    /// Milliseconds on a clock that never goes backwards (its origin is arbitrary).
    var nowMilliseconds: Int64 { get }
    /// True when time passes by itself: the scheduler then sleeps in real time until the next job is
    /// due. False for a manual clock: the scheduler sleeps until `onAdvance` wakes it.
    var followsRealTime: Bool { get }
    /// Registers a callback run after every move of a manual clock (never called for real time).
    func onAdvance(_ callback: @escaping @Sendable () -> Void)
}

/// `CLOCK_MONOTONIC`: what `siwa-mock serve` schedules on (immune to wall-clock jumps and to the
/// mock clock of `POST /mock/clock`).
package struct MonotonicSchedulerClock: SchedulerClock {
    package init() {}

    package var nowMilliseconds: Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    package var followsRealTime: Bool { true }

    package func onAdvance(_ callback: @escaping @Sendable () -> Void) {}
}

/// A scheduler clock that moves only when told to: jobs due at or before the new time run when
/// `advance(milliseconds:)` is called. Thread-safe.
package final class ManualSchedulerClock: SchedulerClock {
    private struct State {
        var now: Int64
        var callbacks: [@Sendable () -> Void] = []
    }

    private let state: Lock<State>

    package init(milliseconds: Int64 = 0) {
        state = Lock(State(now: milliseconds))
    }

    package var nowMilliseconds: Int64 { state.withLock { $0.now } }

    package var followsRealTime: Bool { false }

    package func onAdvance(_ callback: @escaping @Sendable () -> Void) {
        state.withLock { $0.callbacks.append(callback) }
    }

    /// Moves time forward (negative values are ignored: the clock is monotonic) and wakes schedulers.
    package func advance(milliseconds: Int64) {
        let callbacks = state.withLock { state in
            state.now += max(0, milliseconds)
            return state.callbacks
        }
        for callback in callbacks { callback() }
    }
}
