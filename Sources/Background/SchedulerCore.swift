/// The state shared by a `BackgroundScheduler` and its threads.
final class SchedulerCore: @unchecked Sendable {
    // @unchecked: every `var` below is read and written only while `lock` is held.
    struct Job {
        var due: Int64
        var sequence: Int
        var lane: BackgroundScheduler.Lane?
        var work: @Sendable () -> Void
    }

    /// Condition `Self.workers`: pool threads sleep on it; a job wakes one of them. Condition
    /// `Self.watchers`: `waitUntilIdle` callers, woken whenever a job ends or a thread leaves.
    let lock = ConditionLock(conditions: 2)
    static let workers = 0
    static let watchers = 1
    let clock: any SchedulerClock
    let maximumThreads: Int
    var jobs: [Job] = []
    var nextSequence = 0
    var threads = 0
    var idleThreads = 0
    var running = 0
    var runningPerLane: [String: Int] = [:]
    var stopped = false
    /// Times a pool thread woke from a wait (tests: a job wakes one thread, not every idle one).
    var wakeups = 0

    init(clock: any SchedulerClock, maximumThreads: Int) {
        self.clock = clock
        self.maximumThreads = maximumThreads
    }

    func add(delayMilliseconds: Int64, lane: BackgroundScheduler.Lane?, _ work: @escaping @Sendable () -> Void)
        -> Bool
    {
        let now = clock.nowMilliseconds
        let (delay, overflow) = now.addingReportingOverflow(max(0, delayMilliseconds))
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return false }
        jobs.append(Job(due: overflow ? .max : delay, sequence: nextSequence, lane: lane, work: work))
        nextSequence += 1
        // One sleeper is enough: it runs the job, or re-reads the earliest deadline and sleeps until then.
        lock.signal(Self.workers)
        return ensureThread()
    }

    /// Re-adds a repeating job after it ran (nothing once stopped).
    func readd(interval: Int64, _ work: @escaping @Sendable () -> Void) {
        _ = add(
            delayMilliseconds: interval, lane: nil,
            { [weak self] in
                work()
                self?.readd(interval: interval, work)
            })
    }

    /// Starts a thread when none is idle and the pool may grow; true if a thread exists. Lock held.
    private func ensureThread() -> Bool {
        if idleThreads == 0 && threads < maximumThreads {
            threads += 1
            if !WorkerThread.start({ [self] in self.work() }) { threads -= 1 }
        }
        return threads > 0
    }

    /// Wakes sleeping threads so they re-read the clock (a manual clock moved).
    func wake() { lock.withLock { lock.broadcast(Self.workers) } }

    func stop() {
        let dropped: [Job] = lock.withLock {
            stopped = true
            defer { jobs = [] }
            lock.broadcast(Self.workers)
            lock.broadcast(Self.watchers)
            return jobs
        }
        _ = dropped  // released outside the lock: a job's captures may deinit other schedulers
    }

    /// The index of the job to run now: due, its lane not full, earliest first. Lock held.
    func readyIndex(now: Int64) -> Int? {
        var best: Int?
        for index in jobs.indices where jobs[index].due <= now {
            if let lane = jobs[index].lane, runningPerLane[lane.name, default: 0] >= lane.limit { continue }
            if let chosen = best,
                (jobs[chosen].due, jobs[chosen].sequence) < (jobs[index].due, jobs[index].sequence)
            {
                continue
            }
            best = index
        }
        return best
    }

    /// One pool thread: run ready jobs; otherwise sleep until the next is due or new work arrives.
    private func work() {
        lock.lock()
        while !stopped {
            let now = clock.nowMilliseconds
            if let index = readyIndex(now: now) {
                let job = jobs.remove(at: index)
                running += 1
                if let lane = job.lane { runningPerLane[lane.name, default: 0] += 1 }
                if readyIndex(now: now) != nil {
                    // Another job is ready too: hand it to a sleeper, or start a thread for it.
                    if idleThreads > 0 { lock.signal(Self.workers) } else { _ = ensureThread() }
                }
                lock.unlock()
                job.work()
                lock.lock()
                running -= 1
                if let lane = job.lane {
                    runningPerLane[lane.name, default: 1] -= 1
                    if runningPerLane[lane.name] == 0 { runningPerLane[lane.name] = nil }
                }
                // This thread takes the next ready job itself (a lane slot it freed included).
                lock.broadcast(Self.watchers)
                continue
            }
            let next = jobs.lazy.map(\.due).min()
            var wait: Int64?
            if let next, next > now, clock.followsRealTime { wait = next - now }
            idleThreads += 1
            lock.wait(Self.workers, milliseconds: wait)
            idleThreads -= 1
            wakeups += 1
        }
        threads -= 1
        lock.broadcast(Self.watchers)
        lock.unlock()
    }

    func waitUntilIdle(timeoutMilliseconds: Int64) -> Bool {
        let start = MonotonicSchedulerClock().nowMilliseconds
        lock.lock()
        defer { lock.unlock() }
        while running > 0 || (!stopped && readyIndex(now: clock.nowMilliseconds) != nil) {
            let left = timeoutMilliseconds - (MonotonicSchedulerClock().nowMilliseconds - start)
            if left <= 0 { return false }
            lock.wait(Self.watchers, milliseconds: min(left, 50))
        }
        return true
    }
}
