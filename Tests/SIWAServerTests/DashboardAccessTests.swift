import HTTP
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import Testing

/// `--admin-token` and the dashboard: the sign-in form posts the token (never in a URL) and gets a
/// session cookie; the cookie authenticates reads, and changes only with the dashboard's header and a
/// same-origin `Origin`, so another site's form or script cannot drive the control API.
@Suite struct DashboardAccessTests {
    static let token = "s3cret"

    static func signIn(_ h: ControlHarness, body: String = "admin_token=\(token)", target: String = "/mock/ui/login")
        throws -> TestResponse
    {
        try h.send(RequestBuilder.post(target, body: body, contentType: "application/x-www-form-urlencoded"))
    }

    /// The `name=value` of the session cookie a successful sign-in sets.
    static func sessionCookie(_ h: ControlHarness) throws -> String {
        let response = try signIn(h)
        #expect(response.status == 303 && response.headers["Location"] == "/mock/ui")
        let setCookie = try #require(response.headers["Set-Cookie"])
        let attributes = setCookie.split(separator: ";").map { $0.trimmingPrefix(" ") }
        #expect(attributes.contains("HttpOnly") && attributes.contains("SameSite=Strict"))
        #expect(attributes.contains("Path=/mock"))
        #expect(!setCookie.contains(token), "the cookie holds a session value, not the token")
        return String(attributes[0])
    }

    static func request(
        _ method: HTTPMethod, _ path: String, cookie: String?, proof: Bool = false, origin: String? = nil,
        body: String = ""
    ) -> HTTPRequest {
        var headers = HTTPHeaders([("Host", "127.0.0.1")])
        if let cookie { headers.add("Cookie", "theme=dark; \(cookie)") }
        if proof { headers.add("X-SIWA-Mock-Dashboard", "1") }
        if let origin { headers.add("Origin", origin) }
        if !body.isEmpty { headers.add("Content-Type", "application/json") }
        return HTTPRequest(method: method, target: path, headers: headers, body: Array(body.utf8))
    }

    @Test(arguments: Transport.allCases)
    func signInSetsACookieThatAuthenticatesTheDashboard(_ transport: Transport) throws {
        try ControlHarness.run(transport, adminToken: Self.token) { h in
            let form = try h.send(RequestBuilder.get("/mock/ui"))
            #expect(form.status == 200 && form.text.contains(#"action="/mock/ui/login""#))
            #expect(!form.text.contains(#"id="users""#), "no dashboard before signing in")
            #expect(form.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)

            let wrong = try Self.signIn(h, body: "admin_token=nope")
            #expect(wrong.status == 401 && wrong.headers["Set-Cookie"] == nil)
            #expect(wrong.text.contains("not the admin token"))
            #expect(try Self.signIn(h, body: "").status == 400, "no field")
            let inURL = try Self.signIn(h, body: "", target: "/mock/ui/login?admin_token=\(Self.token)")
            #expect(inURL.status == 400 && inURL.headers["Set-Cookie"] == nil, "never from the URL")

            let cookie = try Self.sessionCookie(h)
            let page = try h.send(Self.request(.get, "/mock/ui", cookie: cookie))
            #expect(page.text.contains(#"id="users""#), "signed in: the dashboard")
            #expect(try h.send(Self.request(.get, "/mock/users", cookie: cookie)).status == 200)
            let forged = "siwa_mock_session=" + String(repeating: "0", count: 64)
            expectControlError(
                try h.send(Self.request(.get, "/mock/users", cookie: forged)), 401, field: "Authorization")

            let out = try h.send(RequestBuilder.post("/mock/ui/logout", body: "", contentType: nil))
            #expect(out.status == 303 && out.headers["Set-Cookie"]?.contains("Max-Age=0") == true)
            let journal = try h.call("GET", "/mock/requests?path=/mock/ui/login", token: Self.token)
            let logged = journal.text
            #expect(!logged.contains(Self.token), "the token is not journaled")
            #expect(logged.contains("the admin token goes in the form body"), "each refusal's reason")
        }
    }

    /// A cross-origin form POST carries the cookie (same site, another port) but no header: refused,
    /// and nothing changes. A script on another origin that sets the header still has its `Origin`.
    @Test(arguments: Transport.allCases)
    func cookieAuthenticatedChangesMustComeFromTheDashboard(_ transport: Transport) throws {
        try ControlHarness.run(transport, adminToken: Self.token) { h in
            let cookie = try Self.sessionCookie(h)
            let revoke = #"{"credential_state":"revoked"}"#
            var formPost = Self.request(.patch, "/mock/users/alice", cookie: cookie, origin: "http://127.0.0.1:9999")
            formPost.body = Array("credential_state=revoked".utf8)
            formPost.headers.add("Content-Type", "application/x-www-form-urlencoded")
            let refused = try h.send(formPost)
            expectControlError(refused, 403, field: "X-SIWA-Mock-Dashboard")
            #expect(refused.json?["error"] == .string("cross_origin"))
            expectControlError(
                try h.send(Self.request(.post, "/mock/reset", cookie: cookie)), 403, field: "X-SIWA-Mock-Dashboard")
            let foreign = Self.request(
                .patch, "/mock/users/alice", cookie: cookie, proof: true, origin: "http://127.0.0.1:9999", body: revoke)
            expectControlError(try h.send(foreign), 403, field: "X-SIWA-Mock-Dashboard")
            let null = Self.request(
                .patch, "/mock/users/alice", cookie: cookie, proof: true, origin: "null", body: revoke)
            expectControlError(try h.send(null), 403, field: "X-SIWA-Mock-Dashboard")
            // Two Origin fields, the first this server's (red team, issue 36 finding 8).
            var twoOrigins = Self.request(
                .patch, "/mock/users/alice", cookie: cookie, proof: true, origin: "http://127.0.0.1", body: revoke)
            twoOrigins.headers.add("Origin", "http://attacker.example")
            expectControlError(try h.send(twoOrigins), 403, field: "X-SIWA-Mock-Dashboard")
            #expect(h.provider.user(named: "alice")?.credentialState == .authorized, "refusals changed nothing")
            let reasons = try h.call("GET", "/mock/requests?path=/mock/users/alice", token: Self.token).text
            #expect(reasons.contains("is not this server"), "the refusal's reason is journaled")

            let own = Self.request(
                .patch, "/mock/users/alice", cookie: cookie, proof: true, origin: "http://127.0.0.1", body: revoke)
            #expect(try h.send(own).status == 200)
            #expect(h.provider.user(named: "alice")?.credentialState == .revoked)
            let noOrigin = Self.request(.post, "/mock/clock", cookie: cookie, proof: true, body: #"{"advance":"1m"}"#)
            #expect(try h.send(noOrigin).status == 200, "same-origin fetches without Origin are fine")
            #expect(try h.call("POST", "/mock/reset", token: Self.token).status == 200, "bearer needs no header")
        }
    }

    @Test func withoutAnAdminTokenSignInIsANoOp() throws {
        try ControlHarness.run(.inProcess) { h in
            let response = try Self.signIn(h, body: "admin_token=anything")
            #expect(response.status == 303 && response.headers["Set-Cookie"] == nil)
            #expect(try Self.signIn(h, body: "").status == 400, "a malformed sign-in is still refused")
            #expect(try h.call("POST", "/mock/reset").status == 200, "the control API stays open as before")
        }
    }
}
