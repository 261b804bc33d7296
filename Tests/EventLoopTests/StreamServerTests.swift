import EventLoop
import Foundation
import Testing

/// A line protocol for the stream seam: greets, echoes each line upper-cased, says goodbye on `quit`,
/// and has last words when the deadline passes.
final class ShoutSession: StreamSession {
    var line: [UInt8] = []

    func open() -> StreamOutput { StreamOutput(bytes: Array("hello\n".utf8)) }

    func receive(_ bytes: UnsafeRawBufferPointer) -> StreamOutput {
        var out: [UInt8] = []
        for byte in bytes {
            guard byte == 10 else {
                line.append(byte)
                continue
            }
            let text = String(decoding: line, as: UTF8.self)
            line.removeAll()
            if text == "quit" { return StreamOutput(bytes: out + Array("bye\n".utf8), next: .close) }
            out += Array((text.uppercased() + "\n").utf8)
        }
        return StreamOutput(bytes: out)
    }

    func timedOut() -> [UInt8] { Array("too slow\n".utf8) }
}

struct ShoutService: StreamService {
    func makeSession(remoteAddress: String) -> any StreamSession { ShoutSession() }
    var overCapacityReply: [UInt8] { Array("busy\n".utf8) }
}

@Suite(.serialized) struct StreamServerTests {
    func connect(_ server: EventLoopServer) throws -> ClientConnection {
        try ClientConnection(host: "127.0.0.1", port: server.port, timeoutMilliseconds: 5_000)
    }

    func withShoutServer<R>(
        configure: (inout ListenerConfiguration) -> Void = { _ in }, _ body: (EventLoopServer) throws -> R
    ) throws -> R {
        var configuration = ListenerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.eventLoops = 1
        configure(&configuration)
        let server = EventLoopServer(configuration: configuration, stream: ShoutService())
        try server.start()
        defer { server.shutdown() }
        return try body(server)
    }

    @Test func aStreamSessionGreetsAnswersEachLineAndClosesWhenItSaysSo() throws {
        try withShoutServer { server in
            let connection = try connect(server)
            try connection.write("one\ntw")
            try connection.write("o\nquit\nignored after quit\n")
            #expect(String(decoding: try connection.readToEnd(), as: UTF8.self) == "hello\nONE\nTWO\nbye\n")
        }
    }

    @Test func aSilentClientGetsTheLastWordsAtTheIdleDeadlineWithoutDelayingOthers() throws {
        try withShoutServer(configure: { $0.idleTimeoutMilliseconds = 300 }) { server in
            let stalled = try connect(server)
            try stalled.write("half a li")
            let started = Date()
            let other = try connect(server)
            try other.write("fast\nquit\n")
            #expect(String(decoding: try other.readToEnd(), as: UTF8.self) == "hello\nFAST\nbye\n")
            #expect(Date().timeIntervalSince(started) < 0.25)
            #expect(String(decoding: try stalled.readToEnd(), as: UTF8.self) == "hello\ntoo slow\n")
            #expect(Date().timeIntervalSince(started) < 3)
        }
    }

    @Test func overTheConnectionLimitTheServicesRefusalIsSent() throws {
        try withShoutServer(configure: { $0.maxConnections = 1 }) { server in
            let first = try connect(server)
            try first.write("x\n")
            let second = try connect(server)
            #expect(String(decoding: try second.readToEnd(), as: UTF8.self) == "busy\n")
            try first.write("quit\n")
            #expect(String(decoding: try first.readToEnd(), as: UTF8.self) == "hello\nX\nbye\n")
        }
    }
}
