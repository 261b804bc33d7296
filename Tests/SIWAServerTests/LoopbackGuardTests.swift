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

    /// Values that end in a loopback name but are not RFC 3986 `host [":" port]` (issue 36 finding 7).
    @Test(arguments: Transport.allCases)
    func aHostThatIsNotAHostNameIsRefused(_ transport: Transport) throws {
        try ControlHarness.run(transport, options: Self.guarded) { h in
            var hosts = ["#", "/", "\\", "?", " ", "@", "%zz"].map { "attacker.example\($0).localhost" }
            hosts += [
                "attacker.example:8080.localhost:8080", "attacker.example:8080.localhost", "[::1]x", "[::1]:8080x",
                "[1::2::3]", "[::1:]", "[vz.x]", "localhost:80:80", "[::1]:-1",
            ]
            hosts.append("attacker.example\t.localhost")
            for host in hosts {
                let response = try h.send(Self.request(.get, "/mock/users", host: host))
                #expect(response.status == 403, "Host \(host)")
                #expect(response.json?["error"] == .string("forbidden_host"), "Host \(host)")
            }
            for host in ["[::ffff:127.0.0.1]:1", "[0:0:0:0:0:0:0:1]", "127.0.0.1:", "a-b_c.localhost"] {
                #expect(try h.send(Self.request(.get, "/mock/users", host: host)).status == 200, "Host \(host)")
            }
        }
    }

    /// Two `Host` or two `Origin` fields, the first a loopback one (issue 36 findings 7 and 8): the HTTP
    /// parser refuses two Hosts (400, RFC 9112 §3.2) and the guard refuses both.
    @Test(arguments: Transport.allCases)
    func twoHostOrOriginFieldsAreRefused(_ transport: Transport) throws {
        try ControlHarness.run(transport, options: Self.guarded) { h in
            for second in ["http://attacker.example", "null"] {
                var request = Self.request(
                    .post, "/mock/reset", host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080")
                request.headers.add("Origin", second)
                let response = try h.send(request)
                #expect(response.status == 403, "second Origin \(second)")
                #expect(response.json?["error"] == .string("cross_origin") && response.json?["field"] == "Origin")
            }
            var twoHosts = Self.request(.get, "/mock/users", host: "127.0.0.1:8080")
            twoHosts.headers.add("Host", "attacker.example")
            let refused = try h.send(twoHosts)
            #expect(refused.status == (transport == .inProcess ? 403 : 400), "\(refused.text)")
            let journal = try h.send(RequestBuilder.get("/mock/requests", query: [("path", "/mock/reset")]))
            let outcomes = journal.json?["requests"]?.arrayValue?.compactMap { $0["outcome"]?.stringValue } ?? []
            #expect(!outcomes.contains("ok"), "no reset ran: \(outcomes)")
        }
    }

    @Test func hostAuthorityFollowsRFC3986() {
        #expect(HostAuthority("Example.COM:8080") == HostAuthority("example.com:8080"))
        #expect(HostAuthority("[::1]:80")?.host == "::1" && HostAuthority("[::1]:80")?.port == "80")
        #expect(HostAuthority("a.example")?.port == nil)
        for valid in [
            "127.0.0.1", "[v1.x:y]", "[2001:db8::1]", "[::]", "[1:2:3:4:5:6:7:8]", "[::1.2.3.4]", "a%41b", "",
        ] {
            #expect(HostAuthority(valid) != nil, "\(valid)")
        }
        for invalid in [
            "a b", "a#b", "a/b", "a\\b", "a?b", "[1:2:3:4:5:6:7:8:9]", "[1:2:3:4:5:6:7::8:9]", "[::1.2.3]", "a%4",
        ] {
            #expect(HostAuthority(invalid) == nil, "\(invalid)")
        }
    }

    @Test func withoutTheGuardEveryHostIsServed() throws {
        try ControlHarness.run(.inProcess) { h in
            let open = try h.send(Self.request(.get, "/mock/users", host: "attacker.example"))
            #expect(open.status == 200)
        }
    }
}
