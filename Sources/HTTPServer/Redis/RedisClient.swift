import Synchronization

/// A Redis client for many threads: a small pool of connections (one per thread using it at a time,
/// idle ones kept up to `maximumIdle`), a timeout on every operation, and a back-off after a failure
/// during which calls fail at once instead of waiting on a server that is down.
///
/// Commands are not retried: after a dropped connection the caller does not know whether Redis ran
/// them, so the failure is reported (the mock answers 503) and the next call connects afresh.
public final class RedisClient: Sendable {
    public let endpoint: RedisEndpoint
    let timeoutMilliseconds: Int
    let maximumIdle: Int
    let idle = Mutex<[RedisConnection]>([])
    let health = Mutex(Health())
    let counters = Mutex(Counters())

    struct Health {
        /// Why the last attempt failed; nil while Redis answers.
        var failure: String?
        /// Monotonic nanoseconds before which calls fail without trying.
        var retryAt: Int64 = 0
        var backoffMilliseconds: Int64 = 0
    }

    /// Commands sent and round trips made (a pipeline is one round trip), for docs/scale-out.md's counts.
    public struct Counters: Sendable, Equatable {
        public var commands = 0
        public var roundTrips = 0
    }

    /// Shortest and longest wait after a failure before the next attempt.
    static let backoffRange: ClosedRange<Int64> = 50...2_000

    public init(endpoint: RedisEndpoint, timeoutMilliseconds: Int = 1_000, maximumIdle: Int = 64) {
        self.endpoint = endpoint
        self.timeoutMilliseconds = max(1, timeoutMilliseconds)
        self.maximumIdle = max(1, maximumIdle)
    }

    /// Sends the commands as one pipeline and returns one reply per command (Redis errors are
    /// `.error` replies, not throws).
    /// - Throws: `RedisError` `.unreachable`, `.timeout` or `.protocolError`; `.server` when login failed.
    public func send(_ commands: [[[UInt8]]]) throws(RedisError) -> [RESPValue] {
        let now = MonotonicClock.now()
        if let refusal = health.withLock({ state -> RedisError? in
            guard let failure = state.failure, now < state.retryAt else { return nil }
            let wait = (state.retryAt - now) / 1_000_000
            return RedisError(.unreachable, "\(failure) (next attempt in \(wait) ms)")
        }) {
            throw refusal
        }
        let connection: RedisConnection
        if let pooled = idle.withLock({ $0.popLast() }) {
            connection = pooled
        } else {
            do {
                connection = try RedisConnection(endpoint: endpoint, timeoutMilliseconds: timeoutMilliseconds)
            } catch {
                noteFailure(error)
                throw error
            }
        }
        do {
            let replies = try connection.pipeline(commands)
            counters.withLock {
                $0.commands += commands.count
                $0.roundTrips += 1
            }
            health.withLock { $0 = Health() }
            idle.withLock { if $0.count < maximumIdle { $0.append(connection) } }
            return replies
        } catch {
            // The others were opened to the same server: after a restart they are all stale.
            idle.withLock { $0.removeAll() }
            noteFailure(error)
            throw error
        }
    }

    /// One command.
    public func send(_ command: [String]) throws(RedisError) -> RESPValue {
        try send([command.map { Array($0.utf8) }])[0]
    }

    /// `PING` (ignoring the back-off): reconnects after an outage and updates `unavailableReason`.
    /// The server calls it periodically, so health recovers without traffic.
    @discardableResult
    public func probe() -> Bool {
        health.withLock { $0.retryAt = 0 }
        return (try? send(["PING"])) == .simpleString("PONG")
    }

    /// Why Redis is not usable now, or nil when the last call succeeded.
    public var unavailableReason: String? { health.withLock { $0.failure } }

    public var sent: Counters { counters.withLock { $0 } }

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
