import HTTP
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import Testing

/// `/mock/faults`: add, list with counters, reset counters, delete — and the rule really applies.
@Suite struct FaultsEndpointsTests {
    @Test(arguments: Transport.allCases)
    func addListResetDelete(_ transport: Transport) throws {
        try ScenarioHarness.run("default.yaml", transport: transport) { (harness) throws in
            let added = try harness.send(
                RequestBuilder.post(
                    "/mock/faults",
                    body:
                        #"{"id": "keys-500", "match": "GET /auth/keys", "times": 2, "status": 500, "error": "server_error"}"#,
                    contentType: "application/json"))
            #expect(added.status == 201, "\(added.text)")
            #expect(added.json?["id"] == .string("keys-500"))
            let duplicate = try harness.send(
                RequestBuilder.post(
                    "/mock/faults", body: #"{"id": "keys-500", "status": 500}"#, contentType: "application/json"))
            #expect(duplicate.status == 409)

            #expect(try harness.send(RequestBuilder.get("/auth/keys")).status == 500)
            let listed = try #require(
                try harness.send(RequestBuilder.get("/mock/faults")).json?["faults"]?.arrayValue?.first?.objectValue)
            #expect(listed["matched"] == .int(1) && listed["fired"] == .int(1))
            #expect(listed["match"] == .string("GET /auth/keys"))

            let reset = try harness.send(RequestBuilder.post("/mock/faults/reset", body: "", contentType: nil))
            #expect(reset.json?["faults"]?.arrayValue?.first?.objectValue?["fired"] == .int(0))
            #expect(try harness.send(RequestBuilder.get("/auth/keys")).status == 500)
            #expect(try harness.send(RequestBuilder.get("/auth/keys")).status == 500)
            #expect(try harness.send(RequestBuilder.get("/auth/keys")).status == 200, "times: 2 exhausted")

            let delete = HTTPRequest(method: "DELETE", target: "/mock/faults/keys-500")
            #expect(try harness.send(delete).status == 204)
            #expect(try harness.send(delete).status == 404)
        }
    }

    /// `PATCH /mock/faults/{id}` (the dashboard's Enable/Disable): a disabled rule stops firing, counters
    /// are kept, enabling it again makes it fire; bad bodies and unknown ids change nothing.
    @Test(arguments: Transport.allCases)
    func patchSwitchesARuleOffAndOn(_ transport: Transport) throws {
        try ScenarioHarness.run("default.yaml", transport: transport) { (harness) throws in
            let added = try harness.send(
                RequestBuilder.post(
                    "/mock/faults", body: #"{"id": "keys-503", "match": "GET /auth/keys", "status": 503}"#,
                    contentType: "application/json"))
            #expect(added.status == 201, "\(added.text)")
            #expect(try harness.send(RequestBuilder.get("/auth/keys")).status == 503)

            func patch(_ id: String, _ body: String) throws -> TestResponse {
                try harness.send(
                    RequestBuilder.post("/mock/faults/\(id)", body: body, contentType: "application/json")
                        .with(method: "PATCH"))
            }
            let off = try patch("keys-503", #"{"enabled": false}"#)
            #expect(off.status == 200, "\(off.text)")
            #expect(off.json?["enabled"] == .bool(false) && off.json?["fired"] == .int(1), "counters kept")
            #expect(try harness.send(RequestBuilder.get("/auth/keys")).status == 200, "a disabled rule does not fire")

            expectControlError(try patch("keys-503", #"{"enabled": "no"}"#), 400, field: "enabled")
            expectControlError(try patch("keys-503", #"{}"#), 400, field: "enabled")
            expectControlError(try patch("keys-503", #"{"enabled": true, "status": 500}"#), 400, field: "status")
            expectControlError(try patch("nope", #"{"enabled": true}"#), 404, field: "id")
            #expect(try harness.send(RequestBuilder.get("/auth/keys")).status == 200, "refused patches changed nothing")

            #expect(try patch("keys-503", #"{"enabled": true}"#).json?["enabled"] == .bool(true))
            #expect(try harness.send(RequestBuilder.get("/auth/keys")).status == 503)
        }
    }

    @Test func invalidRuleIsRejectedWithPositionedProblems() throws {
        try ScenarioHarness.run("default.yaml", transport: .inProcess) { (harness) throws in
            let response = try harness.send(
                RequestBuilder.post(
                    "/mock/faults",
                    body: #"{"match": "POST /auth/token", "user": "alcie", "probabilty": 0.5, "status": 503}"#,
                    contentType: "application/json"))
            #expect(response.status == 400)
            let problems = response.json?["problems"]?.arrayValue?.compactMap(\.stringValue)
            #expect(
                problems == [
                    "body:1:39: unknown user 'alcie' (did you mean 'alice'?)",
                    "body:1:48: unknown key 'probabilty' (did you mean 'probability'?)",
                ])
        }
    }

    @Test func userFilterResolvesTheUserFromTheRefreshToken() throws {
        try ScenarioHarness.run("default.yaml", transport: .inProcess) { (harness) throws in
            let added = try harness.send(
                RequestBuilder.post(
                    "/mock/faults",
                    body:
                        #"{"match": "POST /auth/token", "form": {"grant_type": "refresh_token"}, "user": "bob", "error": "invalid_grant"}"#,
                    contentType: "application/json"))
            #expect(added.status == 201, "\(added.text)")
            for (user, expected) in [("alice", 200), ("bob", 400)] {
                let code = try #require(try harness.signIn(user)[scenarioField: "code"])
                let refreshToken = try #require(try harness.redeem(code).json?["refresh_token"]?.stringValue)
                #expect(try harness.refresh(refreshToken).status == expected, "\(user)")
            }
        }
    }

    /// A fault's answer stands for Apple's, so it says `Server: Apple` like Apple's real answers
    /// (docs/fidelity.md): an error body, a raw body, an empty one, a delayed one; a rule's own `Server`
    /// header wins. The control API's answers about the rules carry none.
    @Test(arguments: Transport.allCases)
    func faultAnswersSayServerApple(_ transport: Transport) throws {
        try ScenarioHarness.run("default.yaml", transport: transport) { (harness) throws in
            let rules = [
                #"{"id": "error", "match": "GET /auth/keys", "times": 1, "status": 500, "error": "server_error"}"#,
                #"{"id": "raw", "match": "GET /auth/keys", "after": 1, "times": 1, "status": 502, "body": "Bad Gateway"}"#,
                #"{"id": "empty", "match": "GET /auth/keys", "after": 2, "times": 1, "status": 503, "delay": "10ms"}"#,
                #"{"id": "own", "match": "GET /auth/keys", "after": 3, "times": 1, "status": 503, "headers": {"Server": "edge"}}"#,
            ]
            for rule in rules {
                let added = try harness.send(
                    RequestBuilder.post("/mock/faults", body: rule, contentType: "application/json"))
                #expect(added.status == 201, "\(added.text)")
                #expect(added.headers["Server"] == nil, "the control API is not Apple")
            }
            for (status, server) in [(500, "Apple"), (502, "Apple"), (503, "Apple"), (503, "edge"), (200, "Apple")] {
                let answer = try harness.send(RequestBuilder.get("/auth/keys"))
                #expect(answer.status == status)
                #expect(answer.headers.values(for: "Server") == [server], "\(status) \(answer.text)")
            }
            #expect(try harness.send(RequestBuilder.get("/mock/faults")).headers["Server"] == nil)
        }
    }
}
