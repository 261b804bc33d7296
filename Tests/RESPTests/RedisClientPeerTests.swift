import EventLoop
import Glibc
import Synchronization
import Testing

@testable import RESP

/// The Redis client treats Redis as a peer it does not trust (issue #21): against a fake server that
/// sends replies nobody asked for, drips a reply, sends a huge one or refuses the login, every call
/// ends within its deadline with a precise error, and no connection is left out of step.
@Suite struct RedisClientPeerTests {
    static func milliseconds() -> Int64 { MonotonicClock.now() / 1_000_000 }

    /// A reply that arrives after the client finished (here: 50 ms after the first answer) used to stay
    /// on the pooled connection and answer the next command, and every later one, one behind.
    @Test func aReplyNobodyAskedForDropsThePooledConnection() throws {
        let server = try FakeRedisServer { peer in
            var parser = RESPParser()
            var answered = 0
            while let command = peer.command(&parser) {
                FakeRedisServer.echo(peer, command)
                answered += 1
                if peer.index == 0 && answered == 1 {
                    usleep(50_000)
                    peer.write("+UNASKED\r\n")
                }
            }
        }
        let client = RedisClient(endpoint: server.endpoint)
        #expect(try client.send(["ECHO", "a"]) == .bulkString(Array("a".utf8)))
        usleep(200_000)
        #expect(try client.send(["ECHO", "b"]) == .bulkString(Array("b".utf8)))
        #expect(try client.send(["ECHO", "c"]) == .bulkString(Array("c".utf8)))
        #expect(client.sent.droppedOutOfStep == 1)
    }

    /// An extra reply in the same read as the answer: the call fails (its answer cannot be trusted) and
    /// the connection is not pooled; the next call is answered right on a new one.
    @Test func anExtraReplyReadWithTheAnswerFailsTheCallAndTheConnection() throws {
        let server = try FakeRedisServer { peer in
            var parser = RESPParser()
            var answered = 0
            while let command = peer.command(&parser) {
                answered += 1
                let text = command.last ?? ""
                let extra = peer.index == 0 && answered == 1 ? "+UNASKED\r\n" : ""
                peer.write("$\(text.utf8.count)\r\n\(text)\r\n\(extra)")
            }
        }
        let client = RedisClient(endpoint: server.endpoint)
        #expect {
            try client.send(["ECHO", "a"])
        } throws: { error in
            (error as? RedisError)?.kind == .protocolError && "\(error)".contains("out of step")
        }
        client.probe()
        #expect(try client.send(["ECHO", "b"]) == .bulkString(Array("b".utf8)))
    }

    /// A reply dripped one byte every 40 ms used to hold the call as long as the server liked (each
    /// byte restarted the timeout); the operation's deadline ends it.
    @Test func aDrippedReplyCannotStretchTheOperationsDeadline() throws {
        let server = try FakeRedisServer { peer in
            var parser = RESPParser()
            while peer.command(&parser) != nil {
                for byte in Array("$20\r\n01234567890123456789\r\n".utf8) {
                    peer.write([byte])
                    usleep(40_000)
                }
            }
        }
        let client = RedisClient(endpoint: server.endpoint, timeoutMilliseconds: 300)
        let start = Self.milliseconds()
        #expect(throws: RedisError.self) { try client.send(["GET", "k"]) }
        let elapsed = Self.milliseconds() - start
        #expect(elapsed >= 290 && elapsed < 700, "one deadline of 300 ms: took \(elapsed) ms")
        #expect(client.unavailableReason?.contains("did not answer within 300 ms") == true)
    }

    /// Many empty strings are few bytes on the wire (2 million were 6 MB, under the 64 MiB bound, and
    /// took ~300 MiB parsed): the elements are charged before they are allocated, and the reply is
    /// refused. Here at a 1 MiB bound (the default's case is `RESPParserTests`): 120 KB on the wire.
    @Test func aReplyOfManyTinyValuesIsRefusedBeforeItIsAllocated() throws {
        let half = "*20000\r\n" + String(repeating: "+\r\n", count: 20_000)
        let server = try FakeRedisServer { peer in
            var parser = RESPParser()
            while peer.command(&parser) != nil { peer.write("*2\r\n" + half + half) }
        }
        var limits = RESPParser.Limits()
        limits.maxReplyBytes = 1 << 20
        let client = RedisClient(endpoint: server.endpoint, timeoutMilliseconds: 5_000, limits: limits)
        #expect {
            try client.send(["HGETALL", "k"])
        } throws: { error in
            (error as? RedisError)?.kind == .protocolError && "\(error)".contains("reply too large")
        }
    }

    /// A restarted Redis answers `-LOADING` to everything while it reads its append-only file. Such an
    /// answer used to count as Redis being back: health said ok while every grant script was refused
    /// (a request answered 503 right after `/mock/health` said ok). It is an outage until Redis serves.
    @Test func aRedisStillLoadingItsDataIsAnOutageNotAnAnswer() throws {
        let serving = Mutex(false)
        let server = try FakeRedisServer { peer in
            var parser = RESPParser()
            while let command = peer.command(&parser) {
                if serving.withLock({ $0 }) {
                    if command == ["PING"] { peer.write("+PONG\r\n") } else { FakeRedisServer.echo(peer, command) }
                } else {
                    peer.write("-LOADING Redis is loading the dataset in memory\r\n")
                }
            }
        }
        let client = RedisClient(endpoint: server.endpoint)
        for command in [["ECHO", "a"], ["EVALSHA", "0123", "0"]] {
            #expect {
                try client.send(command)
            } throws: { error in
                (error as? RedisError)?.kind == .unreachable && "\(error)".contains("does not serve yet: LOADING")
            }
        }
        #expect(client.unavailableReason?.contains("LOADING") == true, "health says unhealthy")
        #expect(!client.probe(), "PING answered LOADING: still down")
        #expect(client.unavailableReason?.contains("LOADING") == true)
        serving.withLock { $0 = true }
        #expect(client.probe())
        #expect(client.unavailableReason == nil)
        #expect(try client.send(["ECHO", "b"]) == .bulkString(Array("b".utf8)))
    }

    @Test(arguments: [
        ("-NOAUTH Authentication required.", nil as String?, "requires a password (it answered NOAUTH)"),
        ("-NOPERM User app has no permissions to run the 'ping' command", nil, "may not run PING (ACL, NOPERM)"),
        (
            "-WRONGPASS invalid username-password pair or user is disabled.", "redis://app:nope@",
            "refused the user name or password (WRONGPASS)"
        ),
    ])
    func refusalsAreReportedAsWhatTheyAre(reply: String, credentials: String?, reason: String) throws {
        let server = try FakeRedisServer { peer in
            var parser = RESPParser()
            while peer.command(&parser) != nil { peer.write(reply + "\r\n") }
        }
        let url = (credentials ?? "redis://") + "127.0.0.1:\(server.port)"
        let client = RedisClient(endpoint: try RedisEndpoint(url: url))
        #expect(!client.probe())
        let why = try #require(client.unavailableReason)
        #expect(why.contains(reason), "\(why)")
        #expect(!why.contains("nope"))
    }
}
