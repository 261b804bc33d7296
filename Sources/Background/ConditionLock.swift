#if canImport(Glibc)
    import Glibc
#endif

/// A pthread mutex with condition variables (one by default) whose timed waits use `CLOCK_MONOTONIC`.
///
/// `Locking.Lock` (the project's lock for values) has no condition variable; the scheduler's threads need one to sleep until
/// a job is due or new work arrives, and a second one for callers waiting until the pool is idle, so
/// that a new job wakes one pool thread instead of every sleeper.
final class ConditionLock: @unchecked Sendable {
    // @unchecked: the pointers are owned by this object (freed in deinit) and only used through
    // pthread calls, which are thread-safe by contract.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let conditions: UnsafeMutablePointer<pthread_cond_t>
    private let count: Int

    /// - Parameter conditions: how many condition variables share the mutex (indices 0..<conditions).
    init(conditions: Int = 1) {
        count = max(1, conditions)
        mutex = .allocate(capacity: 1)
        self.conditions = .allocate(capacity: count)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        for index in 0..<count { pthread_cond_init(self.conditions + index, &attributes) }
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        for index in 0..<count { pthread_cond_destroy(conditions + index) }
        pthread_mutex_destroy(mutex)
        conditions.deallocate()
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

    /// Wakes every thread waiting on condition `index` (call with the mutex held or not).
    func broadcast(_ index: Int = 0) { pthread_cond_broadcast(conditions + min(index, count - 1)) }

    /// Wakes at least one thread waiting on condition `index`, if any waits.
    func signal(_ index: Int = 0) { pthread_cond_signal(conditions + min(index, count - 1)) }

    /// Releases the mutex until condition `index` is signalled or until `milliseconds` pass (nil: no
    /// limit), then takes it again. Callers re-check their condition: wake-ups may be spurious.
    func wait(_ index: Int = 0, milliseconds: Int64?) {
        let condition = conditions + min(index, count - 1)
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
