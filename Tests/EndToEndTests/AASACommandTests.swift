import Foundation
import HTTPServer
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

    @Test func theExchangeAndTheFileAreJudgedLikeApplesCDN() throws {
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
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

        let redirect = try MockProcess.run(["aasa", "check", base + "/redirect/.well-known/apple-app-site-association"])
        #expect(
            redirect.stderr.contains(
                "HTTP status 301: a redirect to https://www.example.com/.well-known/apple-app-site-association; Apple does not follow redirects"
            ))

        let text = try MockProcess.run(["aasa", "check", base + "/text/.well-known/apple-app-site-association"])
        #expect(text.stderr.contains("HTTP Content-Type: 'text/plain'; serve the file as application/json"))

        let https = try MockProcess.run(["aasa", "check", "https://example.com"])
        #expect(https.status == 64 && https.stderr.contains("no TLS client"))
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
