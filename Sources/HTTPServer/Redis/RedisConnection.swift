/// One blocking connection to Redis: connect, `AUTH` and `SELECT`, then pipelines of commands (all
/// written with one `send`, replies read in order). Built on the client socket of `HTTPClientConnection`
/// (connect with a timeout, `TCP_NODELAY`, per-operation timeouts).
///
/// Used by one thread at a time: `RedisClient` hands it over through its lock.
final class RedisConnection: @unchecked Sendable {
    // @unchecked: mutable parser and socket state, but only the thread that took the connection from
    // `RedisClient`'s pool touches it until it gives it back (the Mutex hand-over orders the accesses).
    let socket: HTTPClientConnection
    var parser = RESPParser()

    /// Connects and logs in; a refused `AUTH` or `SELECT` is `.server` with Redis' message.
    init(endpoint: RedisEndpoint, timeoutMilliseconds: Int) throws(RedisError) {
        do {
            socket = try HTTPClientConnection(
                host: endpoint.host, port: endpoint.port, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw Self.translate(error, endpoint: endpoint)
        }
        var setup: [[String]] = []
        if let password = endpoint.password {
            setup.append(endpoint.user.map { ["AUTH", $0, password] } ?? ["AUTH", password])
        }
        if endpoint.database != 0 { setup.append(["SELECT", String(endpoint.database)]) }
        guard !setup.isEmpty else { return }
        let replies = try pipeline(setup.map { $0.map { Array($0.utf8) } })
        for (command, reply) in zip(setup, replies) {
            if case .error(let message) = reply {
                throw RedisError(.server, "\(command[0]) refused by \(endpoint): \(message)")
            }
        }
    }

    /// Writes every command in one `send`, then reads one reply per command.
    func pipeline(_ commands: [[[UInt8]]]) throws(RedisError) -> [RESPValue] {
        var bytes: [UInt8] = []
        for command in commands { RESPCommand.encode(command, into: &bytes) }
        do {
            try socket.write(bytes)
        } catch {
            throw Self.translate(error, endpoint: nil)
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
                    throw Self.translate(error, endpoint: nil)
                }
                guard more else { throw RedisError(.unreachable, "Redis closed the connection") }
                parser.feed(socket.inbound)
                socket.inbound.removeAll(keepingCapacity: true)
            }
        }
        return replies
    }

    static func translate(_ error: HTTPClientError, endpoint: RedisEndpoint?) -> RedisError {
        let kind: RedisErrorKind = error.kind == .timeout ? .timeout : .unreachable
        return RedisError(kind, endpoint.map { "\($0): \(error.message)" } ?? error.message)
    }
}
