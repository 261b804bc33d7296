import EventLoop

/// One blocking connection to Redis: connect, `AUTH` and `SELECT`, then pipelines of commands (all
/// written with one `send`, replies read in order). Built on the event loop's `ClientConnection`
/// (connect with a timeout, `TCP_NODELAY`, a deadline per operation).
///
/// Used by one thread at a time: `RedisClient` hands it over through its lock.
final class RedisConnection: @unchecked Sendable {
    // @unchecked: mutable parser and socket state, but only the thread that took the connection from
    // `RedisClient`'s pool touches it until it gives it back (the `Lock` hand-over orders the accesses).
    let socket: ClientConnection
    var parser: RESPParser
    let endpoint: RedisEndpoint

    /// Connects and logs in before `deadline` (monotonic nanoseconds); a refused `AUTH` or `SELECT` is
    /// `.server` with Redis' reason (`RedisConnection.refusal`).
    init(
        endpoint: RedisEndpoint, timeoutMilliseconds: Int, deadline: Int64, limits: RESPParser.Limits = .init()
    ) throws(RedisError) {
        self.endpoint = endpoint
        parser = RESPParser(limits: limits)
        let left = max(1, Int((deadline - MonotonicClock.now() + 999_999) / 1_000_000))
        do {
            socket = try ClientConnection(
                host: endpoint.host, port: endpoint.port, timeoutMilliseconds: timeoutMilliseconds,
                deadlineMilliseconds: left)
        } catch {
            throw Self.translate(error, endpoint: endpoint, milliseconds: left)
        }
        var setup: [[String]] = []
        if let password = endpoint.password {
            setup.append(endpoint.user.map { ["AUTH", $0, password] } ?? ["AUTH", password])
        }
        if endpoint.database != 0 { setup.append(["SELECT", String(endpoint.database)]) }
        guard !setup.isEmpty else { return }
        let replies = try pipeline(
            setup.map { $0.map { Array($0.utf8) } }, deadline: deadline, timeout: timeoutMilliseconds)
        for (command, reply) in zip(setup, replies) {
            if case .error(let message) = reply { throw Self.refusal(message, to: command[0], by: endpoint) }
        }
    }

    /// Whether the connection can carry the next pipeline: nothing has arrived since the last reply was
    /// read. A reply nobody asked for (or the server's close) would otherwise be read as the answer to
    /// the next command, and every later one would be one reply behind.
    var isInStep: Bool { parser.bufferedByteCount == 0 && !socket.hasPendingInput() }

    /// Writes every command in one `send`, then reads one reply per command, all before `deadline`
    /// (monotonic nanoseconds) however slowly the bytes arrive.
    /// - Throws: `.protocolError` when the reply is not RESP, over the parser's limits, or followed by
    ///   bytes no command asked for (the connection must then be dropped).
    func pipeline(_ commands: [[[UInt8]]], deadline: Int64, timeout: Int) throws(RedisError) -> [RESPValue] {
        socket.deadline = deadline
        socket.deadlineMilliseconds = timeout
        var bytes: [UInt8] = []
        for command in commands { RESPCommand.encode(command, into: &bytes) }
        do {
            try socket.write(bytes)
        } catch {
            throw translate(error)
        }
        var replies: [RESPValue] = []
        replies.reserveCapacity(commands.count)
        while replies.count < commands.count {
            switch parser.next() {
            case .value(let value):
                replies.append(value)
            case .reject(let reason):
                throw RedisError(.protocolError, "unreadable reply from Redis: \(reason)")
            case .needMoreData:
                let more: Bool
                do {
                    more = try socket.fill()
                } catch {
                    throw translate(error)
                }
                guard more else { throw RedisError(.unreachable, "Redis closed the connection") }
                parser.feed(socket.inbound)
                socket.inbound.removeAll(keepingCapacity: true)
            }
        }
        guard parser.bufferedByteCount == 0 else {
            throw RedisError(
                .protocolError,
                "Redis sent \(parser.bufferedByteCount) bytes more than the replies asked for: "
                    + "out of step, connection dropped")
        }
        return replies
    }

    /// A socket failure as a Redis error; a timeout names the operation's whole deadline.
    func translate(_ error: ClientError) -> RedisError {
        Self.translate(error, endpoint: nil, milliseconds: socket.deadlineMilliseconds)
    }

    static func translate(_ error: ClientError, endpoint: RedisEndpoint?, milliseconds: Int) -> RedisError {
        let kind: RedisErrorKind = error.kind == .timeout ? .timeout : .unreachable
        let message = error.kind == .timeout ? "Redis did not answer within \(milliseconds) ms" : error.message
        return RedisError(kind, endpoint.map { "\($0): \(message)" } ?? message)
    }

    /// A command refused at login or by `PING`, said as what it is: a missing password (`NOAUTH`), a wrong
    /// user or password (`WRONGPASS`), an ACL refusal (`NOPERM`), or Redis' own words.
    static func refusal(_ message: String, to command: String, by endpoint: RedisEndpoint) -> RedisError {
        let code = message.prefix { $0 != " " }
        let why: String
        switch code {
        case "NOAUTH":
            why =
                "Redis requires a password (it answered NOAUTH): give one in the store URL, "
                + "redis://[user:]password@host:port"
        case "WRONGPASS":
            why = "Redis refused the user name or password (WRONGPASS)"
        case "NOPERM":
            why = "the Redis user may not run \(command) (ACL, NOPERM): \(message)"
        default:
            why = "\(command) refused: \(message)"
        }
        return RedisError(.server, "\(endpoint): \(why)")
    }
}
