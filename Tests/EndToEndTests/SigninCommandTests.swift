import Foundation
import HTTP
import JOSE
import JSON
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `siwa-mock signin` (issue #24): the README's one-line headless sign-in against the built binary, and
/// its precise failures when the URL is not a usable mock.
@Suite struct SigninCommandTests {
    func signin(_ mock: MockProcess?, _ arguments: [String], url: String? = nil) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try MockProcess.run(["signin", "--url", url ?? mock?.baseURL ?? ""] + arguments)
    }

    @Test func scopesGiveTheEmailThroughFormPostAndTheTokenVerifies() throws {
        let mock = try MockProcess()
        let run = try signin(
            mock, ["--user", "alice", "--client", "com.example.web", "--scope", "name email", "--nonce", "n-1"])
        #expect(run.status == 0, "\(run.stderr)")
        let output = try JSONValue.parse(Array(run.stdout.utf8))
        let claims = try #require(output["claims"])
        #expect(claims["sub"] == .string("001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111"))
        #expect(claims["email"] == .string("alice@example.com"))
        #expect(claims["nonce"] == .string("n-1"))
        #expect(claims["aud"] == .string("com.example.web"))
        let idToken = try #require(output["token_response"]?["id_token"]?.stringValue)
        #expect(try JWS(compact: idToken).payload == claims.objectValue)
        #expect(output["token_response"]?["refresh_token"]?.stringValue != nil)
        #expect(output["user"]?["email"] == .string("alice@example.com"), "form_post's user field, first time only")

        // The same token as `verify` judges it; and the code was used (the journal saw one redemption).
        let verify = try MockProcess.run(["verify", "--url", mock.baseURL, "--audience", "com.example.web", idToken])
        #expect(verify.status == 0, "\(verify.stderr)")
        let journal = try HTTPClient.send(
            HTTPClientRequest(target: "/mock/requests?path=/auth/token"), host: "127.0.0.1", port: mock.port)
        #expect(try JSONValue.parse(journal.body)["requests"]?.arrayValue?.count == 1)
    }

    @Test func withoutScopesTheCodeComesBackInTheRedirectAndHasNoEmail() throws {
        let mock = try MockProcess()
        let run = try signin(mock, ["--user", "bob"])
        #expect(run.status == 0, "\(run.stderr)")
        let output = try JSONValue.parse(Array(run.stdout.utf8))
        #expect(output["claims"]?["sub"] == .string("001234.1b2c3d4e5f60718293a4b5c6d7e8f90a.2222"))
        #expect(output["claims"]?["email"] == nil)
        #expect(output["user"] == nil)
    }

    @Test func aSignInAfterTheMockClockMovedADaySignsItsSecretAtTheMocksTime() throws {
        // The mock judges the client secret's exp by its clock: one signed at wall time with an hour's
        // lifetime would be refused as expired (invalid_client) once a test advanced the clock a day.
        let mock = try MockProcess()
        let advance = try HTTPClient.send(
            HTTPClientRequest(method: "POST", target: "/mock/clock", body: Array(#"{"advance":"1d"}"#.utf8)),
            host: "127.0.0.1", port: mock.port)
        #expect(advance.status == 200)
        let run = try signin(mock, ["--user", "alice"])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func anUnknownUserIsRefusedWithTheMocksReason() throws {
        let mock = try MockProcess()
        let run = try signin(mock, ["--user", "mallory"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("/auth/authorize refused the sign-in"), "\(run.stderr)")
        #expect(run.stderr.contains("mallory"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test func aSecretTheScenarioDoesNotKnowSaysWhichKeyWasUsed() throws {
        let mock = try MockProcess()
        let run = try signin(mock, ["--user", "alice", "--key-id", "KEY7654321"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("invalid_client"), "\(run.stderr)")
        #expect(run.stderr.contains("give --team-id, --key-id and --key"), "\(run.stderr)")
    }

    @Test func aBadScopeIsAUsageError() throws {
        let run = try signin(nil, ["--user", "alice", "--scope", "full_name"], url: "http://127.0.0.1:1")
        #expect(run.status == 64)
        #expect(run.stderr.contains("'full_name' is not a scope"), "\(run.stderr)")
    }

    @Test func nothingListeningIsSaidAsSuch() throws {
        let port = try Self.closedPort()
        let run = try signin(nil, ["--user", "alice"], url: "http://127.0.0.1:\(port)")
        #expect(run.status == 1)
        #expect(run.stderr.contains("nothing is listening at http://127.0.0.1:\(port)"), "\(run.stderr)")
    }

    /// Another server on the port (the quick start with 8080 taken): "not a siwa-mock", not a 404 or a JWS error.
    @Test func anotherServerIsNotASiwaMock() throws {
        let other = try StaticServer(status: "404 Not Found", body: "<html>nope</html>")
        defer { other.stop() }
        let run = try signin(nil, ["--user", "alice"], url: "http://127.0.0.1:\(other.port)")
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("http://127.0.0.1:\(other.port): not a siwa-mock (got no Content-Type 404"),
            "\(run.stderr)")
        #expect(!run.stderr.contains("JWS"))
    }

    /// A token that does not verify (its key is not in /auth/keys: a scenario that signs with an
    /// unpublished key, as a proxy swapping in a forged token would give): exit 1, the reasons on stderr
    /// and nothing on stdout, so `signin … | jq .claims.sub` reads no identity (issue 36 finding 4).
    @Test func aTokenThatDoesNotVerifyPrintsNothingOnStdout() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signin-\(getpid())-hidden")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("hidden.yaml")
        let pem = ScenarioCommandTests.scenarios + "/keys/signing-Aj3F8kLq2X.pem"
        try "signing_keys:\n  - kid: Aj3F8kLq2X\n    pem_file: \(pem)\n    signs: true\n    published: false\n"
            .write(to: scenario, atomically: true, encoding: .utf8)
        let mock = try MockProcess(["--scenario", scenario.path])
        let run = try signin(mock, ["--user", "alice"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("invalid id_token"), "\(run.stderr)")
        #expect(run.stdout.isEmpty, "\(run.stdout)")
    }

    /// A server whose answer never ends (chunked, at loopback speed): cut at 1 MiB and refused, in
    /// seconds, instead of buffering gigabytes (issue 36 finding 5).
    @Test func anEndlessAnswerIsCutAndRefused() throws {
        let endless = try StaticServer(status: "200 OK", body: "", endless: true)
        defer { endless.stop() }
        let started = Date()
        let run = try signin(nil, ["--user", "alice"], url: "http://127.0.0.1:\(endless.port)")
        #expect(run.status == 1)
        #expect(run.stderr.contains("larger than 1048576 bytes"), "\(run.stderr)")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    /// A port nothing listens on: bound and closed again.
    static func closedPort() throws -> Int {
        let server = try StaticServer(status: "200 OK", body: "")
        server.stop()
        return server.port
    }
}

/// A one-thread HTTP server answering every request with the same status and body (no Content-Type), as a
/// foreign server on the mock's port would. `stop()` it when done.
final class StaticServer: @unchecked Sendable {
    let fd: Int32
    let port: Int
    let response: [UInt8]

    /// - Parameter endless: after the head, a chunked body that never ends (until the peer goes).
    init(status: String, body: String, endless: Bool = false) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Int32 in
                guard bind(fd, raw, length) == 0, listen(fd, 8) == 0 else { return -1 }
                return getsockname(fd, raw, &length)
            }
        }
        guard bound == 0 else {
            Glibc.close(fd)
            throw MockProcessError("cannot bind a loopback port: errno \(errno)")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        response = Array(
            (endless
                ? "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                : "HTTP/1.1 \(status)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)").utf8)
        let response = response
        Thread.detachNewThread {
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else {
                    Glibc.close(fd)  // after `stop()`: the listener is closed here, once
                    return
                }
                var buffer = [UInt8](repeating: 0, count: 4096)
                _ = read(client, &buffer, buffer.count)
                _ = response.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                if endless {
                    let chunk = Array("4000\r\n".utf8) + [UInt8](repeating: 0x20, count: 0x4000) + Array("\r\n".utf8)
                    while chunk.withUnsafeBytes({ send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 {}
                }
                Glibc.close(client)
            }
        }
    }

    /// Stops listening (connections are refused from now on); the accept thread then closes the socket.
    func stop() { shutdown(fd, Int32(SHUT_RDWR)) }
}
