import EventLoop
import Foundation
import HTTP
import TLS
import Testing

/// `siwa-mock aasa check`: each common misconfiguration, reported where it is.
@Suite struct AASACommandTests {
    /// A backend serving its association file, answers chosen per path.
    struct Site: HTTPResponder {
        func respond(to request: HTTPRequest) -> HTTPResponse {
            let good = Array(#"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#.utf8)
            switch request.path {
            case "/.well-known/apple-app-site-association":
                return HTTPResponse(
                    status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]), body: good)
            case "/redirect/.well-known/apple-app-site-association":
                return HTTPResponse(
                    status: 301,
                    headers: HTTPHeaders([
                        ("Location", "https://www.example.com/.well-known/apple-app-site-association")
                    ]),
                    body: [])
            case "/text/.well-known/apple-app-site-association":
                return HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "text/plain")]), body: good)
            default:
                return HTTPResponse(status: 404, headers: HTTPHeaders(), body: [])
            }
        }
    }

    /// Serves `Site` over HTTPS with a certificate from a fresh local CA (as `serve --tls` makes one).
    static func httpsSite(names: [String] = ["localhost", "127.0.0.1"]) throws -> (
        server: EventLoopServer, caFile: String
    ) {
        let ca = try TLSCertificateAuthority.generate()
        let leaf = try ca.issueServerCertificate(for: names)
        var configuration = HTTPServerConfiguration()
        configuration.listener.host = "127.0.0.1"
        configuration.listener.port = 0
        configuration.listener.tls = try TLSServerContext(
            certificateChainPEM: leaf.certificateChainPEM, privateKeyPEM: leaf.privateKeyPEM)
        let server = EventLoopServer(configuration: configuration, responder: Site())
        try server.start()
        let caFile = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-ca-\(UUID().uuidString).pem")
        try ca.certificatePEM.write(to: caFile, atomically: true, encoding: .utf8)
        return (server, caFile.path)
    }

    @Test func theExchangeAndTheFileAreJudgedLikeApplesCDN() throws {
        let (site, caFile) = try Self.httpsSite()
        defer {
            site.shutdown()
            try? FileManager.default.removeItem(atPath: caFile)
        }
        let base = "https://127.0.0.1:\(site.port)"

        let good = try MockProcess.run(["aasa", "check", base, "--ca", caFile])
        #expect(good.status == 0 && good.stdout == "ok: webcredentials lists ABCDE12345.com.example.app\n")

        let redirect = try MockProcess.run(
            ["aasa", "check", base + "/redirect/.well-known/apple-app-site-association", "--ca", caFile])
        #expect(redirect.status == 1)
        #expect(
            redirect.stderr.contains(
                "HTTP status 301: a redirect to https://www.example.com/.well-known/apple-app-site-association; "
                    + "Apple does not follow redirects"))

        let text = try MockProcess.run([
            "aasa", "check", base + "/text/.well-known/apple-app-site-association", "--ca", caFile,
        ])
        #expect(text.stderr.contains("HTTP Content-Type: 'text/plain'; serve the file as application/json"))

        // Without the CA the certificate is not trusted, as on a device.
        let untrusted = try MockProcess.run(["aasa", "check", base])
        #expect(untrusted.status == 1 && untrusted.stderr.contains("the server's certificate is not trusted"))
    }

    @Test func theHTTPClientVerifiesTheCertificateAndItsName() throws {
        let (site, caFile) = try Self.httpsSite()
        defer {
            site.shutdown()
            try? FileManager.default.removeItem(atPath: caFile)
        }
        let trusted = try TLSClientContext(trustedCertificatesPEM: String(contentsOfFile: caFile, encoding: .utf8))
        let url = "https://127.0.0.1:\(site.port)/.well-known/apple-app-site-association"
        let response = try HTTPClient.send(HTTPClientRequest(), to: url, tls: trusted)
        #expect(response.status == 200 && response.headers["Content-Type"] == "application/json")
        // Without a context an https:// URL is refused, as before (notifications stay on http://).
        #expect(throws: ClientError.self) { try HTTPClient.send(HTTPClientRequest(), to: url) }

        // A certificate from the trusted CA that does not name the address is refused too.
        let (other, otherCA) = try Self.httpsSite(names: ["localhost"])
        defer {
            other.shutdown()
            try? FileManager.default.removeItem(atPath: otherCA)
        }
        let otherTrust = try TLSClientContext(trustedCertificatesPEM: String(contentsOfFile: otherCA, encoding: .utf8))
        let mismatch = #expect(throws: ClientError.self) {
            try HTTPClient.send(HTTPClientRequest(), to: "https://127.0.0.1:\(other.port)/", tls: otherTrust)
        }
        #expect(mismatch?.kind == .connectFailed)
        #expect(mismatch?.message.contains("the server's certificate is not trusted: IP address mismatch") == true)
    }

    @Test func plainHTTPIsAProblemOfItsOwn() throws {
        var configuration = HTTPServerConfiguration()
        configuration.listener.host = "127.0.0.1"
        configuration.listener.port = 0
        let site = EventLoopServer(configuration: configuration, responder: Site())
        try site.start()
        defer { site.shutdown() }
        let base = "http://127.0.0.1:\(site.port)"
        let plain = try MockProcess.run(["aasa", "check", base])
        #expect(plain.status == 1)
        #expect(
            plain.stderr.contains(
                "HTTP request: \(base)/.well-known/apple-app-site-association is not HTTPS: Apple fetches the file over HTTPS only"
            ))
        #expect(!plain.stderr.contains("Content-Type"))
    }

    @Test func fileProblemsAreLocated() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func check(_ text: String) throws -> (status: Int32, stdout: String, stderr: String) {
            let file = directory.appendingPathComponent("aasa.json")
            try text.write(to: file, atomically: true, encoding: .utf8)
            let result = try MockProcess.run(["aasa", "check", file.path])
            return (result.status, result.stdout, result.stderr.replacingOccurrences(of: file.path, with: "F"))
        }
        let ok = try check(#"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#)
        #expect(ok.status == 0 && ok.stdout == "ok: webcredentials lists ABCDE12345.com.example.app\n")
        let typo = try check("{\"webcredentials\": {\n  \"apps\": [\"ABCDE12354.com.example.app\"]}}")
        #expect(typo.status == 1)
        #expect(
            typo.stderr.hasPrefix(
                "F:2:12: Team ID 'ABCDE12354' in 'ABCDE12354.com.example.app' is not the scenario's (did you mean 'ABCDE12345'?)"
            ))
        let missing = try check(#"{"applinks": {"details": []}}"#)
        #expect(missing.stderr.hasPrefix("F:1:1: no 'webcredentials' key"))
        let broken = try check(#"{"webcredentials": }"#)
        #expect(broken.stderr.hasPrefix("F:1:20: not valid JSON"))
    }
}
