import HTTP
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import Testing

/// `/mock/ui`: the page, its script and style sheet served from memory with caching and safety headers,
/// and the data the page shows (per-app credential states, the journal without the page's own polls).
@Suite struct DashboardTests {
    static let proof = ("X-SIWA-Mock-Dashboard", "1")

    @Test(arguments: Transport.allCases)
    func pageScriptAndStyleAreServedWithCachingAndSafetyHeaders(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            let page = try h.send(RequestBuilder.get("/mock/ui"))
            #expect(page.status == 200)
            #expect(page.headers["Content-Type"]?.hasPrefix("text/html") == true)
            #expect(page.text.contains(#"<script src="/mock/ui/dashboard.js" defer></script>"#))
            #expect(page.text.contains(#"id="users""#), "without --admin-token the page is the dashboard itself")
            let policy = try #require(page.headers["Content-Security-Policy"])
            #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"))
            #expect(policy.contains("frame-ancestors 'none'") && policy.contains("default-src 'none'"))
            #expect(page.headers["X-Frame-Options"] == "DENY")

            for (path, type) in [
                ("/mock/ui", "text/html"), ("/mock/ui/dashboard.js", "text/javascript"),
                ("/mock/ui/dashboard.css", "text/css"),
            ] {
                let first = try h.send(RequestBuilder.get(path))
                #expect(first.status == 200 && first.headers["Content-Type"]?.hasPrefix(type) == true, "\(path)")
                #expect(first.headers["Cache-Control"] == "no-cache", "\(path)")
                let etag = try #require(first.headers["ETag"], "\(path)")
                var again = RequestBuilder.get(path)
                again.headers.add("If-None-Match", "\"other\", W/\(etag)")
                let revalidated = try h.send(again)
                #expect(revalidated.status == 304 && revalidated.body.isEmpty, "\(path): \(revalidated.status)")
                #expect(revalidated.headers["ETag"] == etag)
                var stale = RequestBuilder.get(path)
                stale.headers.add("If-None-Match", "\"other\"")
                #expect(try h.send(stale).body == first.body, "\(path): a stale ETag gets the bytes")
            }
        }
    }

    /// Values reach the page only through the script's `textContent`: the script has no HTML sink, and
    /// the page's bytes do not depend on what users or requests contain.
    @Test func noValueIsRenderedAsHTML() throws {
        try ControlHarness.run(.inProcess) { h in
            let before = try h.send(RequestBuilder.get("/mock/ui")).body
            let payload = #"<img src=x onerror="alert(1)"><script>alert(2)</script>"#
            let added = try h.call(
                "POST", "/mock/users",
                .object(
                    JSONObject([
                        // An email must be an addr-spec: markup fits in a quoted local part.
                        ("id", .string(payload)), ("email", .string(#""<script>alert(3)</script>"@example.com"#)),
                        ("first_name", .string(payload)),
                    ])))
            #expect(added.status == 201, "\(added.text)")
            _ = try h.send(RequestBuilder.get("/auth/authorize", query: [("client_id", payload), ("state", payload)]))
            #expect(try h.send(RequestBuilder.get("/mock/ui")).body == before)

            let script = try h.send(RequestBuilder.get("/mock/ui/dashboard.js")).text
            for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
                #expect(!script.contains(sink), "the script uses \(sink)")
            }
            #expect(script.contains("textContent"))
        }
    }

    @Test(arguments: Transport.allCases)
    func usersCarryTheirCredentialStatePerApp(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            func states() throws -> JSONObject? {
                try h.call("GET", "/mock/users/alice").json?["credential_states"]?.objectValue
            }
            let clients = h.provider.scenario.clients.map(\.id)
            #expect(try states()?.keys.sorted() == clients.sorted())
            #expect(try states()?["com.example.app"] == .string("not_found"))
            let credential = try h.call(
                "POST", "/mock/credentials",
                .object(JSONObject([("client_id", .string("com.example.app")), ("user", .string("alice"))])))
            #expect(credential.status == 200, "\(credential.text)")
            for client in clients {
                let live = try h.call("GET", "/mock/credential-state?user=alice&client_id=\(client)")
                let answered = try #require(live.json?["state"]?.stringValue)
                let expected = answered == "notFound" ? "not_found" : answered
                #expect(try states()?[client]?.stringValue == expected, "\(client) as the device API answers")
            }
            #expect(try states()?["com.example.app"] == .string("authorized"))
            _ = try h.call(
                "PATCH", "/mock/users/alice", .object(JSONObject([("credential_state", .string("revoked"))])))
            #expect(try states()?["com.example.app"] == .string("revoked"))
        }
    }

    /// The page polls every second; its reads stay out of the journal (they would evict the backend's
    /// traffic), its changes do not.
    @Test func theDashboardsOwnReadsAreNotJournaled() throws {
        try ControlHarness.run(.inProcess) { h in
            var read = RequestBuilder.get("/mock/users")
            read.headers.add(Self.proof.0, Self.proof.1)
            #expect(try h.send(read).status == 200)
            var change = RequestBuilder.post("/mock/clock", body: #"{"advance":"1m"}"#, contentType: "application/json")
            change.headers.add(Self.proof.0, Self.proof.1)
            #expect(try h.send(change).status == 200)
            #expect(try h.send(RequestBuilder.get("/mock/users")).status == 200)
            let paths = try h.call("GET", "/mock/requests?include=mock").json?["requests"]?.arrayValue?
                .compactMap { $0.objectValue?["path"]?.stringValue }
            #expect(paths == ["/mock/clock", "/mock/users"], "the marked read is missing, the rest kept")
        }
    }
}
