#if canImport(Glibc)
    import Glibc
#endif

/// A value behind a lock: the project's one lock type, used as `Synchronization.Mutex` is
/// (`withLock`), but built on glibc's adaptive mutex instead of a priority-inheritance futex.
///
/// Why not `Mutex`: on Linux the toolchain's `Mutex` (Swift 6.3) takes `FUTEX_LOCK_PI`, whose kernel
/// path hands the lock from one waiter to the next and never spins in user space. Under contention
/// every waiter sleeps in the kernel and the lock is passed on in a convoy. With eight store workers
/// and two event loops on two cores, handing requests to the store workers cost a median 22 % of the
/// in-memory rate and at worst two thirds, with the cores idle; with this lock, nothing measurable
/// (bench/RESULTS.md, "issue #26's fourth pass"). Swift's own fix
/// (https://github.com/swiftlang/swift/issues/88440, pull request 88523: a plain futex with a short
/// spin) is not in this toolchain. glibc's `PTHREAD_MUTEX_ADAPTIVE_NP` spins briefly while the owner
/// runs on another core, then sleeps on a plain futex, and lets a running thread take a freed lock.
///
/// Not recursive: a thread that takes the lock again inside `withLock` is a bug. Debug builds (the tests,
/// TSan) use an error-checking mutex and trap there, as `Mutex` does; release builds, whose mutex only
/// spins and sleeps, would deadlock.
package struct Lock<Value>: ~Copyable, @unchecked Sendable {
    // @unchecked: `value` is only read or written between `pthread_mutex_lock` and `unlock` on
    // `mutex`, whose acquire and release order those accesses across threads; values go in and out
    // as `sending`, as `Mutex`'s do, so no reference to them stays with the caller.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    /// A lock holding `initialValue`.
    package init(_ initialValue: consuming sending Value) {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if DEBUG
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        #else
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock, and returns what it returns.
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let locked = pthread_mutex_lock(mutex)
        precondition(locked == 0, "Lock: taken again by the thread that holds it (error \(locked))")
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }

    /// `withLock` that moves `item` into `body` instead of letting a closure capture (and copy) it: for
    /// a value that ends up stored in the locked state (a journal entry entering its ring).
    package borrowing func withLock<Item: ~Copyable, Result>(
        moving item: consuming Item, _ body: (inout Value, consuming Item) -> Result
    ) -> Result {
        let locked = pthread_mutex_lock(mutex)
        precondition(locked == 0, "Lock: taken again by the thread that holds it (error \(locked))")
        defer { pthread_mutex_unlock(mutex) }
        return body(&value.pointee, item)
    }
}
