import EventLoop
import Locking

/// A Redis client for many threads: a small pool of connections (one per thread using it at a time,
/// idle ones kept up to `maximumIdle`), one deadline per operation (connect, login, write and every
/// reply byte: a reply dripped a byte at a time cannot stretch it), and a back-off after a failure
/// during which calls fail at once instead of waiting on a server that is down.
///
/// Redis is a peer, not trusted: replies are bounded before they are allocated (`RESPParser.Limits`),
/// and a pooled connection on which anything arrived between operations (a reply nobody asked for) is
/// dropped before use, so it can never leave later commands reading earlier commands' answers.
///
/// Commands are not retried: after a dropped connection the caller does not know whether Redis ran
/// them, so the failure is reported (the mock answers 503) and the next call connects afresh.
package final class RedisClient: Sendable {
    package let endpoint: RedisEndpoint
    let timeoutMilliseconds: Int
    let maximumIdle: Int
    let idle = Lock<[RedisConnection]>([])
    let health = Lock(Health())
    let counters = Lock(Counters())
    let limits: RESPParser.Limits

    struct Health {
        /// Why the last attempt failed; nil while Redis answers.
        var failure: String?
        /// Monotonic nanoseconds before which calls fail without trying.
        var retryAt: Int64 = 0
        var backoffMilliseconds: Int64 = 0
    }

    /// Commands sent and round trips made (a pipeline is one round trip), for docs/scale-out.md's counts.
    package struct Counters: Sendable, Equatable {
        package var commands = 0
        package var roundTrips = 0
        /// Pooled connections dropped before use because something arrived on them unasked.
        package var droppedOutOfStep = 0
    }

    /// Shortest and longest wait after a failure before the next attempt.
    static let backoffRange: ClosedRange<Int64> = 50...2_000

    /// - Parameters:
    ///   - timeoutMilliseconds: the deadline of each operation (`send`), from its start to its last reply.
    ///   - limits: bounds on each reply (elements, bytes, nesting).
    package init(
        endpoint: RedisEndpoint, timeoutMilliseconds: Int = 1_000, maximumIdle: Int = 64,
        limits: RESPParser.Limits = .init()
    ) {
        self.endpoint = endpoint
        self.timeoutMilliseconds = max(1, timeoutMilliseconds)
        self.maximumIdle = max(1, maximumIdle)
        self.limits = limits
    }

    /// Sends the commands as one pipeline and returns one reply per command (Redis errors are
    /// `.error` replies, not throws).
    /// - Throws: `RedisError` `.unreachable`, `.timeout` or `.protocolError`; `.server` when login failed.
    package func send(_ commands: [[[UInt8]]]) throws(RedisError) -> [RESPValue] {
        let now = MonotonicClock.now()
        if let refusal = health.withLock({ state -> RedisError? in
            guard let failure = state.failure, now < state.retryAt else { return nil }
            let wait = (state.retryAt - now) / 1_000_000
            return RedisError(.unreachable, "\(failure) (next attempt in \(wait) ms)")
        }) {
            throw refusal
        }
        let deadline = now + MonotonicClock.nanoseconds(milliseconds: timeoutMilliseconds)
        let connection: RedisConnection
        if let pooled = takeIdleInStep() {
            connection = pooled
        } else {
            do {
                connection = try RedisConnection(
                    endpoint: endpoint, timeoutMilliseconds: timeoutMilliseconds, deadline: deadline, limits: limits)
            } catch {
                noteFailure(error)
                throw error
            }
        }
        let replies: [RESPValue]
        do {
            replies = try connection.pipeline(commands, deadline: deadline, timeout: timeoutMilliseconds)
        } catch {
            // The others were opened to the same server: after a restart they are all stale.
            idle.withLock { $0.removeAll() }
            noteFailure(error)
            throw error
        }
        counters.withLock {
            $0.commands += commands.count
            $0.roundTrips += 1
        }
        idle.withLock { if $0.count < maximumIdle { $0.append(connection) } }
        if let refusal = Self.notServing(replies) {
            noteFailure(refusal)
            throw refusal
        }
        health.withLock { $0 = Health() }
        return replies
    }

    /// A Redis that answers but does not serve yet: `LOADING` (a restarted Redis reading its append-only
    /// file or snapshot) and `BUSY` (a script running past its limit) refuse every data command without
    /// running it. Such a reply is an outage, not an answer: it used to count as one, which set health
    /// back to `ok` while every grant script was refused, so a request answered 503 right after
    /// `/mock/health` said ok (the differential test, bench/RESULTS.md).
    static func notServing(_ replies: [RESPValue]) -> RedisError? {
        for reply in replies {
            guard case .error(let message) = reply else { continue }
            if message.hasPrefix("LOADING") || message.hasPrefix("BUSY ") {
                return RedisError(.unreachable, "Redis does not serve yet: \(message.prefix(120))")
            }
        }
        return nil
    }

    /// The most recently pooled connection with nothing unread on it; the others taken on the way are
    /// dropped (closed when released).
    func takeIdleInStep() -> RedisConnection? {
        while let pooled = idle.withLock({ $0.popLast() }) {
            if pooled.isInStep { return pooled }
            counters.withLock { $0.droppedOutOfStep += 1 }
        }
        return nil
    }

    /// One command.
    package func send(_ command: [String]) throws(RedisError) -> RESPValue {
        try send([command.map { Array($0.utf8) }])[0]
    }

    /// `PING` (ignoring the back-off): reconnects after an outage and updates `unavailableReason`.
    /// The server calls it periodically, so health recovers without traffic.
    /// A `PING` answered with an error (`NOAUTH` when the URL has no password, an ACL refusal) is a
    /// failure with that reason, not a silent one.
    @discardableResult
    package func probe() -> Bool {
        health.withLock { $0.retryAt = 0 }
        guard let reply = try? send(["PING"]) else { return false }
        if case .error(let message) = reply {
            noteFailure(RedisConnection.refusal(message, to: "PING", by: endpoint))
            return false
        }
        return reply == .simpleString("PONG")
    }

    /// Why Redis is not usable now, or nil when the last call succeeded.
    package var unavailableReason: String? { health.withLock { $0.failure } }

    package var sent: Counters { counters.withLock { $0 } }

    func noteFailure(_ error: RedisError) {
        let now = MonotonicClock.now()
        health.withLock { state in
            state.failure = error.message
            let next = max(Self.backoffRange.lowerBound, state.backoffMilliseconds * 2)
            state.backoffMilliseconds = min(next, Self.backoffRange.upperBound)
            state.retryAt = now + MonotonicClock.nanoseconds(milliseconds: Int(state.backoffMilliseconds))
        }
    }
}
