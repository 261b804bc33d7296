import Glibc

/// CLOCK_MONOTONIC in nanoseconds (a vDSO call, cheap enough to read once per loop iteration).
package enum MonotonicClock {
    package static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// Milliseconds to nanoseconds, clamped so huge configuration values cannot overflow.
    package static func nanoseconds(milliseconds: Int) -> Int64 {
        Int64(min(max(milliseconds, 0), 1_000_000_000)) * 1_000_000
    }
}
