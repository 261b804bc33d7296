import Synchronization
import Testing

@testable import Background

/// A one-way gate a job can block on until the test opens it (no sleeping).
final class Gate: Sendable {
    private let lock = ConditionLock()
    private let state = Mutex((open: false, waiting: 0))

    func pass() {
        lock.withLock {
            state.withLock { $0.waiting += 1 }
            lock.broadcast()
            while !state.withLock({ $0.open }) { lock.wait(milliseconds: nil) }
        }
    }

    func open() {
        lock.withLock {
            state.withLock { $0.open = true }
            lock.broadcast()
        }
    }

    /// Blocks until `count` jobs wait at the gate (or 5 s of real time pass); returns whether they do.
    func waitForWaiting(_ count: Int) -> Bool {
        lock.withLock {
            for _ in 0..<100 where state.withLock({ $0.waiting }) < count { lock.wait(milliseconds: 50) }
            return state.withLock { $0.waiting } >= count
        }
    }
}

@Suite struct BackgroundSchedulerTests {
    let clock = ManualSchedulerClock()

    @Test func oneShotJobRunsWhenTheClockReachesItsDelay() {
        let scheduler = BackgroundScheduler(clock: clock)
        let runs = Mutex(0)
        #expect(scheduler.schedule(after: 1000) { runs.withLock { $0 += 1 } })
        #expect(scheduler.waitUntilIdle())
        #expect(runs.withLock { $0 } == 0 && scheduler.pendingJobs == 1)
        clock.advance(milliseconds: 999)
        #expect(scheduler.waitUntilIdle())
        #expect(runs.withLock { $0 } == 0)
        clock.advance(milliseconds: 1)
        #expect(scheduler.waitUntilIdle())
        #expect(runs.withLock { $0 } == 1 && scheduler.pendingJobs == 0)
    }

    @Test func jobsRunInDueOrder() {
        let scheduler = BackgroundScheduler(clock: clock, maximumThreads: 1)
        let order = Mutex<[Int]>([])
        for (delay, tag) in [(300, 3), (100, 1), (200, 2)] {
            scheduler.schedule(after: Int64(delay)) { order.withLock { $0.append(tag) } }
        }
        clock.advance(milliseconds: 300)
        #expect(scheduler.waitUntilIdle())
        #expect(order.withLock { $0 } == [1, 2, 3])
    }

    @Test func repeatingJobRunsOncePerInterval() {
        let scheduler = BackgroundScheduler(clock: clock)
        let runs = Mutex(0)
        #expect(scheduler.repeatEvery(1000) { runs.withLock { $0 += 1 } })
        for expected in 1...3 {
            clock.advance(milliseconds: 1000)
            #expect(scheduler.waitUntilIdle())
            #expect(runs.withLock { $0 } == expected)
        }
        clock.advance(milliseconds: 500)
        #expect(scheduler.waitUntilIdle())
        #expect(runs.withLock { $0 } == 3)
    }

    @Test func aFullLaneWaitsWhileOtherLanesRun() {
        let scheduler = BackgroundScheduler(clock: clock, maximumThreads: 4)
        let slow = BackgroundScheduler.Lane("slow:80", limit: 1)
        let gate = Gate()
        let finished = Mutex<[String]>([])
        scheduler.schedule(lane: slow) {
            gate.pass()
            finished.withLock { $0.append("slow-1") }
        }
        #expect(gate.waitForWaiting(1))
        scheduler.schedule(lane: slow) { finished.withLock { $0.append("slow-2") } }
        scheduler.schedule(lane: .init("fast:80", limit: 1)) { finished.withLock { $0.append("fast") } }
        // The fast lane's job runs although the slow lane's first job blocks; the slow lane's second waits.
        #expect(!scheduler.waitUntilIdle(timeoutMilliseconds: 300))
        #expect(finished.withLock { $0 } == ["fast"])
        #expect(scheduler.pendingJobs == 1)
        gate.open()
        #expect(scheduler.waitUntilIdle())
        #expect(finished.withLock { $0 } == ["fast", "slow-1", "slow-2"])
    }

    @Test func stopDropsPendingJobsAndRefusesNewOnes() {
        let scheduler = BackgroundScheduler(clock: clock)
        let runs = Mutex(0)
        scheduler.schedule(after: 10) { runs.withLock { $0 += 1 } }
        scheduler.stop()
        #expect(!scheduler.schedule { runs.withLock { $0 += 1 } })
        clock.advance(milliseconds: 10)
        #expect(scheduler.waitUntilIdle())
        #expect(runs.withLock { $0 } == 0 && scheduler.pendingJobs == 0)
    }

    @Test func realClockRunsAJobAfterItsDelay() {
        let scheduler = BackgroundScheduler()
        let gate = Gate()
        let start = MonotonicSchedulerClock().nowMilliseconds
        let ranAt = Mutex<Int64>(0)
        scheduler.schedule(after: 50) {
            ranAt.withLock { $0 = MonotonicSchedulerClock().nowMilliseconds }
            gate.pass()
        }
        #expect(gate.waitForWaiting(1))
        #expect(ranAt.withLock { $0 } - start >= 50)
        gate.open()
    }

    /// A new job wakes one sleeping pool thread, not all of them (with `--store`, every request is a job:
    /// waking eight threads per request cost the Redis store a third of its throughput; bench/RESULTS.md).
    @Test func aJobWakesOneIdleThreadNotAll() {
        let scheduler = BackgroundScheduler(maximumThreads: 8)
        let gate = Gate()
        for _ in 0..<8 { scheduler.schedule { gate.pass() } }
        #expect(gate.waitForWaiting(8))
        gate.open()
        #expect(scheduler.waitUntilIdle())
        let core = scheduler.core
        #expect(core.lock.withLock { core.threads } == 8)
        let before = core.lock.withLock { core.wakeups }
        let runs = Mutex(0)
        for _ in 0..<50 {
            scheduler.schedule { runs.withLock { $0 += 1 } }
            #expect(scheduler.waitUntilIdle())
        }
        let wakeups = core.lock.withLock { core.wakeups } - before
        #expect(runs.withLock { $0 } == 50)
        // One wake-up per job (a few spurious ones allowed); waking every idle thread gave about 8 per job.
        #expect(wakeups <= 75, "\(wakeups) wake-ups for 50 jobs on 8 idle threads")
    }
}
