import EventLoop
import Foundation
import HTTP
import Testing

/// A TLS handshake counts as part of receiving the first request head: it gets its own (short) timeout,
/// not the (much longer) idle timeout, so stalled handshakes cannot pile up connections.
@Suite(.serialized) struct TLSHandshakeTimeoutTests {
    @Test func aStalledHandshakeIsClosedAtTheHandshakeTimeoutNotTheIdleTimeout() throws {
        try withTLSServer(configure: {
            $0.listener.handshakeTimeoutMilliseconds = 200
            $0.listener.idleTimeoutMilliseconds = 30_000
        }) { server, _ in
            for partial in ["", "\u{16}\u{03}\u{01}"] {
                let connection = try ClientConnection(
                    host: "127.0.0.1", port: server.port, timeoutMilliseconds: 5000)
                if !partial.isEmpty { try connection.write(partial) }
                let started = Date()
                // Without the handshake deadline the read times out after 5 s (the idle timeout is 30 s).
                #expect(try connection.readToEnd().isEmpty)
                #expect(Date().timeIntervalSince(started) < 3)
            }
        }
    }

    @Test func aFinishedHandshakeThenWaitsTheIdleTimeoutBeforeTheFirstRequest() throws {
        try withTLSServer(configure: {
            $0.listener.handshakeTimeoutMilliseconds = 200
            $0.listener.idleTimeoutMilliseconds = 30_000
        }) { server, fixture in
            // openssl s_client completes the handshake, then the request follows well after 200 ms.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = [
                "s_client", "-quiet", "-connect", "127.0.0.1:\(server.port)", "-servername", "appleid.apple.com",
                "-CAfile", fixture.caFile,
            ]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            usleep(800_000)
            input.fileHandleForWriting.write(Data("GET /late HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            let response = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(response.hasPrefix("HTTP/1.1 200"), "\(response)")
            #expect(response.hasSuffix("GET /late 0"))
        }
    }
}
