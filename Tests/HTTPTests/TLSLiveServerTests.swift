import EventLoop
import Foundation
import HTTP
import Synchronization
import TLS
import Testing

/// The TLS transport over live loopback sockets, with curl (a real TLS client) trusting a fresh local CA.
@Suite(.serialized) struct TLSLiveServerTests {
    @Test func getOverTLSWithTheCATrustedAndTheNameImpersonated() throws {
        try withTLSServer { server, fixture in
            let result = try Curl.run(fixture.curlArguments(server, path: "/auth/keys"))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "GET /auth/keys 0")
            let records = fixture.waitForExchanges(1)
            #expect(records.first?.secure == true)
        }
    }

    @Test func keepAlivePostsAndLargeResponsesOverTLS() throws {
        try withTLSServer { server, fixture in
            let body = String(repeating: "a", count: 300_000)
            let file = try fixture.directory.write("body.txt", body)
            var arguments = fixture.curlArguments(server, path: "/first")
            arguments += ["--next"] + fixture.curlArguments(server, path: "/post") + ["--data-binary", "@\(file)"]
            arguments += ["--next"] + fixture.curlArguments(server, path: "/big")
            let result = try Curl.run(arguments + ["-v"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("GET /first 0POST /post 300000"))
            #expect(result.stdout.utf8.count == "GET /first 0POST /post 300000".utf8.count + Self.bigBody.count)
            #expect(
                result.stderr.contains("Re-using existing connection") || result.stderr.contains("Reusing existing"))
        }
    }

    @Test func bothTLSVersionsNegotiate() throws {
        try withTLSServer { server, fixture in
            for version in ["--tlsv1.2", "--tlsv1.3"] {
                let max = version == "--tlsv1.2" ? ["--tls-max", "1.2"] : []
                let result = try Curl.run(fixture.curlArguments(server, path: "/v") + [version] + max)
                #expect(result.status == 0, "\(version): \(result.stderr)")
            }
        }
    }

    @Test func plainHTTPOnTheTLSPortGets400AndIsLoggedAndTheServerKeepsServing() throws {
        try withTLSServer { server, fixture in
            let response = try HTTPClient.send(
                HTTPClientRequest(target: "/auth/keys"), host: "127.0.0.1", port: server.port)
            #expect(response.status == 400)
            #expect(String(decoding: response.body, as: UTF8.self).contains("speaks HTTPS"))
            let diagnostics = fixture.waitForDiagnostics(1)
            #expect(diagnostics.first?.kind == .plainHTTPOnTLSPort)
            #expect(diagnostics.first?.remoteAddress.hasPrefix("127.0.0.1:") == true)
            let result = try Curl.run(fixture.curlArguments(server, path: "/after"))
            #expect(result.stdout == "GET /after 0")
        }
    }

    @Test func aClientThatDoesNotTrustTheCAFailsTheHandshakeWhichIsReported() throws {
        try withTLSServer { server, fixture in
            let result = try Curl.run([
                "-sS", "--max-time", "5", "--resolve", "appleid.apple.com:\(server.port):127.0.0.1",
                "https://appleid.apple.com:\(server.port)/x",
            ])
            #expect(result.status == 60)  // curl: peer certificate cannot be authenticated
            let diagnostics = fixture.waitForDiagnostics(1)
            #expect(diagnostics.first?.kind == .tlsFailure)
            #expect(diagnostics.first?.message.contains("unknown ca") == true)
            #expect(fixture.exchanges.withLock { $0.isEmpty })
        }
    }

    @Test func garbageBytesAreReportedAndClosed() throws {
        try withTLSServer { server, fixture in
            let connection = try ClientConnection(host: "127.0.0.1", port: server.port, timeoutMilliseconds: 3000)
            _ = try? connection.send(
                HTTPClientRequest(method: "\u{16}\u{03}\u{01}\u{00}", target: "/"), keepAlive: false)
            let diagnostics = fixture.waitForDiagnostics(1)
            #expect(diagnostics.first?.kind == .tlsFailure || diagnostics.first?.kind == .plainHTTPOnTLSPort)
            let result = try Curl.run(fixture.curlArguments(server, path: "/still-up"))
            #expect(result.stdout == "GET /still-up 0")
        }
    }

    @Test func truncatedBodyFaultWorksOverTLS() throws {
        try withTLSServer { server, fixture in
            let result = try Curl.run(fixture.curlArguments(server, path: "/truncate"))
            #expect(result.status == 18 || result.status == 56, "\(result.status) \(result.stderr)")  // partial file
        }
    }

    static let bigBody = [UInt8](repeating: UInt8(ascii: "z"), count: 3_000_000)

    @Sendable static func respond(_ request: HTTPRequest) -> HTTPResponse {
        switch request.path {
        case "/big":
            return HTTPResponse(status: 200, body: bigBody)
        case "/truncate":
            return HTTPResponse(status: 200, body: Array(repeating: 1, count: 10_000), delivery: .truncatedBody)
        default:
            return HTTPResponse(
                status: 200, body: Array("\(request.method) \(request.target) \(request.body.count)".utf8))
        }
    }
}

/// What a TLS test server records, plus the CA that curl trusts.
final class TLSFixture: Sendable {
    let exchanges = Mutex<[HTTPExchangeRecord]>([])
    let diagnostics = Mutex<[ConnectionDiagnostic]>([])
    let directory: TemporaryDirectory
    let caFile: String
    let context: TLSServerContext

    init() throws {
        directory = try TemporaryDirectory()
        let ca = try TLSCertificateAuthority.generate()
        let leaf = try ca.issueServerCertificate(for: ["appleid.apple.com", "localhost", "127.0.0.1"])
        caFile = try directory.write("ca.pem", ca.certificatePEM)
        context = try TLSServerContext(certificateChainPEM: leaf.certificateChainPEM, privateKeyPEM: leaf.privateKeyPEM)
    }

    func curlArguments(_ server: EventLoopServer, path: String) -> [String] {
        [
            "-sS", "--max-time", "30", "--cacert", caFile, "--resolve", "appleid.apple.com:\(server.port):127.0.0.1",
            "https://appleid.apple.com:\(server.port)\(path)",
        ]
    }

    /// Exchanges are reported after the last byte is written, possibly just after curl returned.
    func waitForExchanges(_ count: Int) -> [HTTPExchangeRecord] {
        poll { exchanges.withLock { $0.count >= count ? $0 : nil } } ?? exchanges.withLock { $0 }
    }

    func waitForDiagnostics(_ count: Int) -> [ConnectionDiagnostic] {
        poll { diagnostics.withLock { $0.count >= count ? $0 : nil } } ?? diagnostics.withLock { $0 }
    }

    private func poll<T>(_ check: () -> T?) -> T? {
        for _ in 0..<200 {
            if let value = check() { return value }
            usleep(10_000)
        }
        return nil
    }
}

func withTLSServer(
    configure: (inout HTTPServerConfiguration) -> Void = { _ in }, _ body: (EventLoopServer, TLSFixture) throws -> Void
) throws {
    let fixture = try TLSFixture()
    var configuration = HTTPServerConfiguration()
    configuration.listener.host = "127.0.0.1"
    configuration.listener.port = 0
    configuration.listener.eventLoops = 2
    configuration.listener.tls = fixture.context
    configure(&configuration)
    let server = EventLoopServer(
        configuration: configuration, responder: ClosureResponder(body: TLSLiveServerTests.respond),
        onExchange: { record in fixture.exchanges.withLock { $0.append(record) } },
        onDiagnostic: { diagnostic in fixture.diagnostics.withLock { $0.append(diagnostic) } })
    try server.start()
    defer { server.shutdown() }
    try body(server, fixture)
}

/// Runs curl and captures its output.
enum Curl {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = Mutex(Data())
        let reader = Thread { errData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() } }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.withLock { $0 }, as: UTF8.self))
    }
}

/// A directory under /tmp removed when the value is released.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "siwa-http-tls-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}
