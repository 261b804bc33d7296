import Background
import Locking

/// Requests parked by `GET /mock/mail?wait=` until a message they match is stored, or their wait ends
/// (docs/relay-mail.md, "Waiting for mail"). At most `limit` are parked at once (docs/limits.md); each
/// leaves when it is woken, times out, or its connection closes (`DeferredResponse.cancel`), so none
/// outlives its wait.
///
/// Timeouts run on the one background helper, timed by its clock (real time in a server, a manual
/// clock in tests): deadlines are rounded up to a tick of `tickMilliseconds`, and one job is armed per
/// tick, so however many waits come and go, at most `maximumWaitMilliseconds / tickMilliseconds + 1`
/// timer jobs are pending.
package final class MailWaiters: Sendable {
    /// The longest wait a request may ask for.
    package static let maximumWaitMilliseconds: Int64 = 60_000
    /// Timeouts fire on these boundaries of the scheduler's clock (a wait may last up to one tick longer).
    static let tickMilliseconds: Int64 = 100

    struct Waiter {
        var deadline: Int64
        var matches: @Sendable (MailRecord) -> Bool
        /// Answers the request (renders the list as it is then); called once, outside the lock.
        var finish: @Sendable () -> Void
    }

    struct State {
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 1
        /// Ticks with a timer job pending.
        var armedTicks: Set<Int64> = []
    }

    private let state = Lock(State())
    /// The most requests parked at once.
    package let limit: Int

    package init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Requests parked now.
    package var count: Int { state.withLock { $0.waiters.count } }

    /// Parks a request until a stored record passes `matches` or `milliseconds` pass on `scheduler`'s
    /// clock, then calls `finish` once.
    /// - Returns: the waiter's id (for `finish(_:)`); nil when `limit` requests are already parked or
    ///   no timer could be started.
    package func park(
        for milliseconds: Int64, on scheduler: BackgroundScheduler, matches: @escaping @Sendable (MailRecord) -> Bool,
        finish: @escaping @Sendable () -> Void
    ) -> UInt64? {
        let deadline = scheduler.clock.nowMilliseconds + milliseconds
        let tick = (deadline + Self.tickMilliseconds - 1) / Self.tickMilliseconds * Self.tickMilliseconds
        let parked: (id: UInt64, arm: Bool)? = state.withLock { state in
            guard state.waiters.count < limit else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.waiters[id] = Waiter(deadline: deadline, matches: matches, finish: finish)
            return (id, state.armedTicks.insert(tick).inserted)
        }
        guard let parked else { return nil }
        if parked.arm {
            let delay = max(0, tick - scheduler.clock.nowMilliseconds)
            let started = scheduler.schedule(after: delay) { [weak self] in self?.expire(tick: tick, now: tick) }
            if !started {
                state.withLock { state in
                    state.armedTicks.remove(tick)
                    _ = state.waiters.removeValue(forKey: parked.id)
                }
                return nil
            }
        }
        return parked.id
    }

    /// Answers the waiter now (a match was already stored, or its connection closed); nothing if it
    /// already left.
    package func finish(_ id: UInt64) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.finish()
    }

    /// A record was stored: answers every waiter it matches. The filters run outside the lock (they
    /// read the record's index, never its message): parking and expiry never wait on a search. A
    /// request parked meanwhile is not missed: it looks at the mailbox again once parked
    /// (`MailEndpoints.waitForMail`), and the record is stored before this is called.
    package func stored(_ record: MailRecord) {
        let parked: [(id: UInt64, matches: @Sendable (MailRecord) -> Bool)] = state.withLock { state in
            state.waiters.map { ($0.key, $0.value.matches) }
        }
        guard !parked.isEmpty else { return }
        let matched = parked.filter { $0.matches(record) }.map(\.id)
        guard !matched.isEmpty else { return }
        let woken = state.withLock { state in matched.compactMap { state.waiters.removeValue(forKey: $0) } }
        for waiter in woken { waiter.finish() }
    }

    /// A timer job for `tick` ran: answers every waiter whose wait is over.
    func expire(tick: Int64, now: Int64) {
        let expired: [Waiter] = state.withLock { state in
            state.armedTicks.remove(tick)
            let ids = state.waiters.compactMap { $0.value.deadline <= now ? $0.key : nil }
            return ids.compactMap { state.waiters.removeValue(forKey: $0) }
        }
        for waiter in expired { waiter.finish() }
    }
}
