/// The one helper for background work (docs/architecture.md, "Modules"): timers and blocking jobs on a small pool of
/// threads, timed by an injectable `SchedulerClock` so tests advance time instead of sleeping.
///
/// - One-shot jobs (`schedule(after:lane:_:)`) run once when due: notification attempts and retries.
/// - Repeating jobs (`repeatEvery(_:_:)`) run, then wait the interval again: maintenance, file watching.
/// - A `Lane` bounds how many jobs with the same name run at once (one slow destination cannot take
///   every thread), while jobs of other lanes keep running.
///
/// Threads start lazily (none until the first job) up to `maximumThreads`. Releasing the scheduler (or
/// `stop()`) drops pending jobs and ends its threads once their current job returns.
package final class BackgroundScheduler: Sendable {
    /// A named group of jobs of which at most `limit` run at the same time.
    package struct Lane: Sendable, Hashable {
        package var name: String
        package var limit: Int

        package init(_ name: String, limit: Int) {
            self.name = name
            self.limit = max(1, limit)
        }
    }

    let core: SchedulerCore

    /// - Parameters:
    ///   - clock: real monotonic time by default; a `ManualSchedulerClock` in tests.
    ///   - maximumThreads: the most jobs running at once, across lanes.
    package init(clock: any SchedulerClock = MonotonicSchedulerClock(), maximumThreads: Int = 8) {
        core = SchedulerCore(clock: clock, maximumThreads: max(1, maximumThreads))
        clock.onAdvance { [weak core] in core?.wake() }
    }

    deinit { core.stop() }

    /// The clock jobs are timed by.
    package var clock: any SchedulerClock { core.clock }

    /// Runs `work` once on a background thread, `delayMilliseconds` from now on the scheduler's clock.
    /// - Returns: false when no thread could be started or the scheduler is stopped (the job is dropped).
    @discardableResult
    package func schedule(
        after delayMilliseconds: Int64 = 0, lane: Lane? = nil, _ work: @escaping @Sendable () -> Void
    ) -> Bool {
        core.add(delayMilliseconds: delayMilliseconds, lane: lane, work)
    }

    /// Runs `work` every `intervalMilliseconds` (measured from the end of the previous run), first one
    /// interval from now, until the scheduler stops.
    /// - Returns: false when no thread could be started.
    @discardableResult
    package func repeatEvery(_ intervalMilliseconds: Int64, _ work: @escaping @Sendable () -> Void) -> Bool {
        let interval = max(1, intervalMilliseconds)
        return core.add(
            delayMilliseconds: interval, lane: nil,
            { [weak core] in
                work()
                core?.readd(interval: interval, work)
            })
    }

    /// Blocks until no job is running and none is due on the scheduler's clock (jobs due later do not
    /// count), or until `timeoutMilliseconds` of real time pass.
    /// - Returns: whether the scheduler became idle in time.
    @discardableResult
    package func waitUntilIdle(timeoutMilliseconds: Int64 = 10_000) -> Bool {
        core.waitUntilIdle(timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Jobs not yet started (due or not).
    package var pendingJobs: Int { core.lock.withLock { core.jobs.count } }

    /// Drops pending jobs and lets the threads end after their current job.
    package func stop() { core.stop() }
}
