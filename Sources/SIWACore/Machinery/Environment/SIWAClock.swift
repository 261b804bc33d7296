import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The source of "now" for every rule that depends on time (code expiry, token lifetimes,
/// client-secret `exp`). Injected so tests and the control API can freeze and move time.
///
/// Named `SIWAClock` so it does not collide with the standard library's `Clock` protocol.
package protocol SIWAClock: Sendable {
    /// Milliseconds since the Unix epoch.
    var nowMilliseconds: Int64 { get }
}

extension SIWAClock {
    /// Whole seconds since the Unix epoch (what JWT `iat`/`exp` use).
    package var nowSeconds: Int64 {
        let ms = nowMilliseconds
        return ms >= 0 ? ms / 1000 : (ms - 999) / 1000
    }
}

/// A clock that only moves when told to: frozen at a time, advanced, or set.
///
/// Thread-safe; shared by the server and the control API.
package final class ManualClock: SIWAClock {
    private let milliseconds: Lock<Int64>

    /// Starts frozen at `seconds` since the epoch.
    package init(seconds: Int64) {
        milliseconds = Lock(seconds * 1000)
    }

    /// Starts frozen at `milliseconds` since the epoch.
    package init(milliseconds: Int64) {
        self.milliseconds = Lock(milliseconds)
    }

    package var nowMilliseconds: Int64 { milliseconds.withLock { $0 } }

    /// Moves time forward (or backward for a negative value).
    package func advance(seconds: Int64) {
        milliseconds.withLock { $0 += seconds * 1000 }
    }

    package func advance(milliseconds delta: Int64) {
        milliseconds.withLock { $0 += delta }
    }

    /// Jumps to an absolute time.
    package func set(seconds: Int64) {
        milliseconds.withLock { $0 = seconds * 1000 }
    }
}

/// The wall clock plus a fixed offset (so a scenario can run "in the future" or "in the past").
package struct SystemClock: SIWAClock {
    /// Added to the real time, in milliseconds.
    package var offsetMilliseconds: Int64

    package init(offsetMilliseconds: Int64 = 0) {
        self.offsetMilliseconds = offsetMilliseconds
    }

    package var nowMilliseconds: Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000 + offsetMilliseconds
    }
}
