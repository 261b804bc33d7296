import Dispatch
import Glibc
import Testing

@testable import Locking

/// A value whose release the tests can see.
private final class Tracked: Sendable {
    let released: @Sendable () -> Void
    init(released: @escaping @Sendable () -> Void) { self.released = released }
    deinit { released() }
}

/// Runs `body` on `count` new POSIX threads at once and returns when all have finished.
private func runOnThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) {
    final class Job: @unchecked Sendable {
        // @unchecked: immutable after init; the barrier is used only through its pthread calls.
        let body: @Sendable () -> Void
        let barrier: UnsafeMutablePointer<pthread_barrier_t>
        init(_ body: @escaping @Sendable () -> Void, barrier: UnsafeMutablePointer<pthread_barrier_t>) {
            self.body = body
            self.barrier = barrier
        }
    }
    let barrier = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)
    pthread_barrier_init(barrier, nil, UInt32(count))
    var threads: [pthread_t] = []
    for _ in 0..<count {
        var thread = pthread_t()
        let job = Unmanaged.passRetained(Job(body, barrier: barrier)).toOpaque()
        let started = pthread_create(
            &thread, nil,
            { raw in
                let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
                pthread_barrier_wait(job.barrier)
                job.body()
                return nil
            }, job)
        precondition(started == 0, "pthread_create failed: \(started)")
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
    pthread_barrier_destroy(barrier)
    barrier.deallocate()
}

/// Whether this test process runs under ThreadSanitizer (`swift test --sanitize=thread`).
private let underThreadSanitizer = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

private struct Refusal: Error, Equatable { let step: Int }

@Suite struct LockTests {
    /// Threads that read, yield and write back a plain `Int` lose updates unless the lock excludes one
    /// another (without the lock this test loses thousands of the 80,000 on two cores).
    @Test func threadsThatReadModifyWriteUnderTheLockLoseNoUpdate() {
        let counter = Lock(0)
        let threads = 8
        let rounds = 10_000
        runOnThreads(threads) {
            for round in 0..<rounds {
                counter.withLock { value in
                    let read = value
                    if round % 16 == 0 { sched_yield() }  // let another thread run between read and write
                    value = read + 1
                }
            }
        }
        #expect(counter.withLock { $0 } == threads * rounds)
    }

    #if DEBUG
        /// Re-entry is a bug that debug builds trap on, as `Mutex` does, instead of hanging. Not under
        /// ThreadSanitizer, which reports the double lock itself (`Tests/TSan/run.sh` fails on any report).
        @Test(.enabled(if: !underThreadSanitizer, "ThreadSanitizer reports a double lock itself"))
        func takingTheLockAgainOnTheSameThreadTraps() async {
            await #expect(processExitsWith: .failure) {
                let lock = Lock(0)
                lock.withLock { _ in lock.withLock { $0 += 1 } }
            }
        }
    #endif

    @Test func theResultOfTheBodyIsReturned() {
        let names = Lock(["a"])
        let count = names.withLock { names -> Int in
            names.append("b")
            return names.count
        }
        #expect(count == 2)
        #expect(names.withLock { $0 } == ["a", "b"])
    }

    /// As with `Mutex`: a throw leaves what the body changed before it, and the lock free for the next caller.
    @Test func aThrowingBodyKeepsItsChangesAndFreesTheLock() {
        let steps = Lock(0)
        #expect(throws: Refusal(step: 1)) {
            try steps.withLock { (value: inout Int) throws(Refusal) in
                value += 1
                throw Refusal(step: value)
            }
        }
        let after = DispatchSemaphore(value: 0)
        let seen = Lock(-1)
        DispatchQueue.global().async {
            seen.withLock { $0 = steps.withLock { $0 } }
            after.signal()
        }
        #expect(after.wait(timeout: .now() + 5) == .success)
        #expect(seen.withLock { $0 } == 1)
    }

    @Test func theValueIsReleasedWithTheLock() {
        let released = Lock(false)
        do {
            let lock = Lock(Tracked { released.withLock { $0 = true } })
            lock.withLock { _ in }
            #expect(!released.withLock { $0 })
        }
        #expect(released.withLock { $0 })
    }

    @Test func aReplacedValueIsReleasedAtOnce() {
        let released = Lock(0)
        let lock = Lock(Tracked { released.withLock { $0 += 1 } })
        lock.withLock { $0 = Tracked {} }
        #expect(released.withLock { $0 } == 1)
    }
}
