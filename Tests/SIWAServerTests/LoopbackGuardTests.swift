import HTTP
import JSON
import SIWAServer
import SIWATestSupport
import Testing

/// Without an admin token on loopback, the control API refuses a non-loopback `Host` (DNS rebinding) and
/// a foreign `Origin` (cross-origin writes), and lets the dashboard's own origin, scripts and the CLI in.
@Suite struct LoopbackGuardTests {
    static let guarded = MockServer.ControlOptions(loopbackGuard: LoopbackGuard(extraNames: ["appleid.apple.com"]))

    static func request(
        _ method: HTTPMethod, _ target: String, host: String?, origin: String? = nil, body: String = "",
        contentType: String? = nil
    ) -> HTTPRequest {
        var headers = HTTPHeaders()
        if let host { headers.add("Host", host) }
        if let origin { headers.add("Origin", origin) }
        if let contentType { headers.add("Content-Type", contentType) }
        return HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8))
    }

    @Test(arguments: Transport.allCases)
    func loopbackHostsAndTheTLSNameAreServed(_ transport: Transport) throws {
        try ControlHarness.run(transport, options: Self.guarded) { h in
            for host in [
                "127.0.0.1:8080", "127.0.0.1", "127.1.2.3:9", "localhost:8080", "LOCALHOST", "app.localhost:1",
                "[::1]:8080", "[::1]", "localhost.", "appleid.apple.com:8443", "AppleID.Apple.com",
            ] {
                let response = try h.send(Self.request(.get, "/mock/users", host: host))
                #expect(response.status == 200, "Host \(host): \(response.text)")
            }
            // No Host at all (an HTTP/1.0 tool; browsers always send one).
            #expect(try h.send(Self.request(.get, "/mock/health", host: nil)).status == 200)
        }
    }

    @Test(arguments: Transport.allCases)
    func aForeignHostIsRefusedWithAClearMessage(_ transport: Transport) throws {
        try ControlHarness.run(transport, options: Self.guarded) { h in
            for host in [
                "attacker.example:8080", "attacker.example", "127.0.0.1.attacker.example", "128.0.0.1:80",
                "127.0.0.256", "localhost.attacker.example", "[::2]:80", "0.0.0.0:8080", "[::1", "x:y",
            ] {
                let response = try h.send(Self.request(.get, "/mock/users", host: host))
                #expect(response.status == 403, "Host \(host)")
                #expect(response.json?["error"] == .string("forbidden_host") && response.json?["field"] == "Host")
            }
            let refused = try h.send(Self.request(.get, "/mock/users", host: "attacker.example:8080"))
            #expect(
                refused.json?["message"]?.stringValue?.hasPrefix(
                    "Host attacker.example:8080 is not a loopback name: without --admin-token") == true)
            // Apple's endpoints are not the control API: served whatever the Host.
            #expect(try h.send(Self.request(.get, "/auth/keys", host: "attacker.example")).status == 200)
            // Nor are the public control routes: a load balancer's health probe sends its own Host
            // (Examples/ScaleOut's nginx passes `Host: lb`), and health holds nothing to steal.
            #expect(try h.send(Self.request(.get, "/mock/health", host: "lb")).status == 200)
            #expect(try h.send(Self.request(.get, "/mock/users", host: "lb")).status == 403)
            let journal = try h.send(RequestBuilder.get("/mock/requests", query: [("path", "/mock/users")]))
            let outcomes = journal.json?["requests"]?.arrayValue?.compactMap { $0["outcome"]?.stringValue } ?? []
            #expect(outcomes.contains("forbidden_host"))
        }
    }

    @Test(arguments: Transport.allCases)
    func aCrossOriginWriteIsRefusedAndChangesNothing(_ transport: Transport) throws {
        try ControlHarness.run(transport, options: Self.guarded) { h in
            let body = #"{"id":"mallory","email":"m@example.com"}"#
            for origin in ["http://attacker.example", "http://127.0.0.1:9999", "null", "http://localhost:8080"] {
                let response = try h.send(
                    Self.request(
                        .post, "/mock/users", host: "127.0.0.1:8080", origin: origin, body: body,
                        contentType: "text/plain"))
                #expect(response.status == 403, "Origin \(origin)")
                #expect(response.json?["error"] == .string("cross_origin") && response.json?["field"] == "Origin")
            }
            #expect(try h.call("GET", "/mock/users/mallory").status == 404, "nothing was added")
            // The dashboard's own origin (the Host it was sent to) is allowed.
            let own = try h.send(
                Self.request(
                    .post, "/mock/users", host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080", body: body,
                    contentType: "application/json"))
            #expect(own.status == 201, "\(own.text)")
        }
    }

    @Test func withoutTheGuardEveryHostIsServed() throws {
        try ControlHarness.run(.inProcess) { h in
            let open = try h.send(Self.request(.get, "/mock/users", host: "attacker.example"))
            #expect(open.status == 200)
        }
    }
}
