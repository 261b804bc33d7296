#if canImport(Glibc)
    import Glibc
#endif

/// A pthread mutex with one condition variable whose timed waits use `CLOCK_MONOTONIC`.
///
/// `Synchronization.Mutex` has no condition variable; the scheduler's threads need one to sleep until
/// a job is due or new work arrives.
final class ConditionLock: @unchecked Sendable {
    // @unchecked: the two pointers are owned by this object (freed in deinit) and only used through
    // pthread calls, which are thread-safe by contract.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the mutex held.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Wakes every waiting thread (call with the mutex held or not).
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Releases the mutex until a broadcast or until `milliseconds` pass (nil: no limit), then takes it
    /// again. Callers re-check their condition: wake-ups may be spurious.
    func wait(milliseconds: Int64?) {
        guard let milliseconds else {
            pthread_cond_wait(condition, mutex)
            return
        }
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let bounded = min(max(milliseconds, 0), 86_400_000)
        let nanoseconds = Int64(deadline.tv_nsec) + (bounded % 1000) * 1_000_000
        deadline.tv_sec += Int(bounded / 1000) + Int(nanoseconds / 1_000_000_000)
        deadline.tv_nsec = Int(nanoseconds % 1_000_000_000)
        pthread_cond_timedwait(condition, mutex, &deadline)
    }
}
