import Foundation
import HTTP
import JSON
import Testing

/// `siwa-mock serve --tls` as a CI sidecar runs it: a local CA in the TLS directory, HTTPS as
/// appleid.apple.com next to plain HTTP, `siwa-mock ca`, and JSON logs without secrets.
@Suite struct TLSServeTests {
    /// Starts the binary with `--tls --tls-port 0` and reads both ready lines.
    func startTLS(_ directory: String, _ extra: [String] = []) throws -> (MockProcess, tlsPort: Int) {
        let mock = try MockProcess(["--tls", "--tls-port", "0", "--tls-dir", directory] + extra)
        let line = try ReadyLine.read(mock.stdout.fileHandleForReading)
        let prefix = "siwa-mock listening on https://127.0.0.1:"
        guard line.hasPrefix(prefix), let port = Int(line.dropFirst(prefix.count)) else {
            throw MockProcessError("unexpected second ready line: \(line)")
        }
        return (mock, port)
    }

    func curl(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sS", "--max-time", "10"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func servesHTTPSAsAppleIDWithTheLocalCAAndKeepsPlainHTTP() throws {
        let directory = try TemporaryStateDirectory()
        let (mock, tlsPort) = try startTLS(directory.path)
        #expect(mock.baseURL.hasPrefix("http://127.0.0.1:"))
        let ca = try MockProcess.run(["ca", "--tls-dir", directory.path])
        #expect(ca.status == 0)
        #expect(ca.stdout.hasPrefix("-----BEGIN CERTIFICATE-----"))
        let caFile = directory.path + "/ca.pem"
        #expect(try String(contentsOfFile: caFile, encoding: .utf8) == ca.stdout)

        let keys = try curl([
            "--cacert", caFile, "--resolve", "appleid.apple.com:\(tlsPort):127.0.0.1",
            "https://appleid.apple.com:\(tlsPort)/auth/keys",
        ])
        #expect(keys.status == 0)
        let jwks = try JSONValue.parse(keys.stdout)
        #expect(jwks["keys"]?[0]?["kid"] == .string("Aj3F8kLq2X"))
        // A page can keep Apple's script URL: the certificate also names Apple's CDN host.
        let script = try curl([
            "--cacert", caFile, "--resolve", "appleid.cdn-apple.com:\(tlsPort):127.0.0.1",
            "https://appleid.cdn-apple.com:\(tlsPort)/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js",
        ])
        #expect(script.status == 0 && script.stdout.contains("window.AppleID.auth = {"))
        // The plain listener still answers, and also serves the CA for CI jobs that cannot exec into the mock.
        let served = try HTTPClient.send(
            HTTPClientRequest(target: "/mock/tls/ca.pem"), host: "127.0.0.1", port: mock.port)
        #expect(served.status == 200)
        #expect(String(decoding: served.body, as: UTF8.self) == ca.stdout)
        // Without the CA the client refuses the certificate (curl exit 60).
        let untrusted = try curl([
            "--resolve", "appleid.apple.com:\(tlsPort):127.0.0.1", "https://appleid.apple.com:\(tlsPort)/auth/keys",
        ])
        #expect(untrusted.status == 60)
        #expect(mock.stop() == 0)
    }

    @Test func plainHTTPToTheTLSPortIsAnswered400AndTheServerSurvives() throws {
        let directory = try TemporaryStateDirectory()
        let (mock, tlsPort) = try startTLS(directory.path, ["--log-format", "json"])
        let plain = try HTTPClient.send(HTTPClientRequest(target: "/auth/keys"), host: "127.0.0.1", port: tlsPort)
        #expect(plain.status == 400)
        let after = try curl(["--cacert", directory.path + "/ca.pem", "https://localhost:\(tlsPort)/mock/health"])
        #expect(after.stdout == #"{"status":"ok"}"#)
        #expect(mock.stop() == 0)
        let log = String(decoding: mock.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let events = log.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
        #expect(events.contains { $0["event"] == .string("plain_http_on_tls_port") && $0["level"] == .string("warn") })
    }

    @Test func theCAIsReusedAcrossRestartsAndKeysAreNotWorldReadable() throws {
        let directory = try TemporaryStateDirectory()
        let (first, _) = try startTLS(directory.path)
        #expect(first.stop() == 0)
        let ca = try String(contentsOfFile: directory.path + "/ca.pem", encoding: .utf8)
        let (second, _) = try startTLS(directory.path, ["--tls-name", "mock.test"])
        #expect(second.stop() == 0)
        #expect(try String(contentsOfFile: directory.path + "/ca.pem", encoding: .utf8) == ca)
        for (file, mode) in [("ca-key.pem", 0o600), ("tls-key.pem", 0o600), ("tls-cert.pem", 0o600), ("ca.pem", 0o644)]
        {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.path + "/" + file)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(file)")
        }
        // The reissued certificate covers the new name.
        let text = try openssl(["x509", "-noout", "-ext", "subjectAltName", "-in", directory.path + "/tls-cert.pem"])
        #expect(
            text.contains("DNS:mock.test") && text.contains("DNS:appleid.apple.com")
                && text.contains("IP Address:127.0.0.1"))
    }

    @Test func noHTTPServesOnlyHTTPSWithOneReadyLine() throws {
        let directory = try TemporaryStateDirectory()
        let mock = try MockProcess(["--tls", "--tls-port", "0", "--tls-dir", directory.path, "--no-http"])
        #expect(mock.baseURL.hasPrefix("https://127.0.0.1:"))
        let health = try curl(["--cacert", directory.path + "/ca.pem", "https://localhost:\(mock.port)/mock/health"])
        #expect(health.stdout == #"{"status":"ok"}"#)
        #expect(mock.stop() == 0)
    }

    @Test func tlsFlagsAreValidated() throws {
        for (arguments, message) in [
            (["--tls-port", "9443"], "need --tls"),
            (["--tls", "--tls-cert", "/nonexistent"], "must be given together"),
            (["--no-http"], "needs --tls"),
            (["--tls", "--tls-port", "70000"], "--tls-port must be an integer"),
            (["--log-format", "xml"], "must be text or json"),
            (["--log-level", "loud"], "must be debug, info, warn or error"),
        ] {
            let run = try MockProcess.run(["serve"] + arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        let missing = try MockProcess.run([
            "serve", "--port", "0", "--tls", "--tls-cert", "/nonexistent/c.pem", "--tls-key", "/nonexistent/k.pem",
        ])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("/nonexistent/c.pem"))
    }

    func openssl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// Reads one more stdout line of a running mock (the `https://` ready line comes second).
enum ReadyLine {
    static func read(_ handle: FileHandle) throws -> String {
        var buffer = Data()
        while buffer.count < 512 {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty { break }
            if byte.first == UInt8(ascii: "\n") { return String(decoding: buffer, as: UTF8.self) }
            buffer.append(byte)
        }
        throw MockProcessError("no second ready line (got '\(String(decoding: buffer, as: UTF8.self))')")
    }
}

/// A fresh TLS/state directory, removed afterwards.
final class TemporaryStateDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "siwa-e2e-tls-" + UUID().uuidString
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
