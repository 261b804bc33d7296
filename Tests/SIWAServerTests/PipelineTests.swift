import HTTP
import JSON
import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

@testable import SIWAServer

/// The one request pipeline: route table, per-surface 404/405, the admin token, one form decode, and a
/// reason for every refusal in the journal and the log fields.
@Suite struct PipelineTests {
    @Test(arguments: Transport.allCases)
    func unknownPathsAndWrongMethodsHaveOneShapePerSurface(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            let appleMissing = try h.send(RequestBuilder.get("/auth/nope"))
            #expect(appleMissing.status == 404)
            #expect(appleMissing.json == JSONObject([("error", .string("not_found"))]))

            let appleMethod = try h.send(HTTPRequest(method: .delete, target: "/auth/keys"))
            #expect(appleMethod.status == 405 && appleMethod.headers["Allow"] == "GET")
            #expect(appleMethod.json == JSONObject([("error", .string("method_not_allowed"))]))
            let authorize = try h.send(HTTPRequest(method: .put, target: "/auth/authorize"))
            #expect(authorize.status == 405 && authorize.headers["Allow"] == "GET, POST")

            let controlMissing = try h.call("GET", "/mock/nope")
            #expect(controlMissing.status == 404)
            #expect(controlMissing.json?["error"] == .string("not_found"))
            #expect(controlMissing.json?["field"] == .string("path"))

            // Every control 405 has the control shape, the faults endpoints included.
            for (method, path, allow) in [
                (HTTPMethod.delete, "/mock/clock", "GET, POST"), (.get, "/mock/faults/reset", "POST"),
                (.put, "/mock/faults", "GET, POST, DELETE"), (.post, "/mock/faults/f1", "GET, PATCH, DELETE"),
            ] {
                let response = try h.call(method, path)
                #expect(response.status == 405, "\(method) \(path)")
                #expect(response.headers["Allow"] == allow, "\(method) \(path)")
                #expect(response.json?["error"] == .string("method_not_allowed"), "\(method) \(path)")
                #expect(response.json?["field"] == .string("method"), "\(method) \(path)")
            }
        }
    }

    @Test(arguments: Transport.allCases)
    func everyRefusalHasAReasonInTheJournal(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            // No code: the client is checked first (a bogus code would be invalid_grant, docs/fidelity.md).
            let badSecret = try h.send(
                RequestBuilder.form(
                    "/auth/token",
                    [
                        ("grant_type", "authorization_code"), ("client_id", TestKeys.webClientID),
                        ("client_secret", "not-a-jws"),
                    ]))
            #expect(badSecret.status == 400)
            #expect(badSecret.json?["error"] == .string("invalid_client"))
            #expect(badSecret.json?["reason"] == nil, "Apple's body stays Apple's")
            _ = try h.send(RequestBuilder.get("/auth/nope"))
            _ = try h.call("DELETE", "/mock/clock")

            let backendOnly = try #require(try h.call("GET", "/mock/requests").json?["requests"]?.arrayValue)
            #expect(!backendOnly.contains { $0["path"]?.stringValue?.hasPrefix("/mock/") == true })
            let journal = try h.call("GET", "/mock/requests?include=mock")
            let entries = try #require(journal.json?["requests"]?.arrayValue)
            let token = try #require(entries.first { $0["path"] == .string("/auth/token") })
            #expect(token["outcome"] == .string("invalid_client"))
            #expect(token["client_id"] == .string(TestKeys.webClientID))
            let reason = try #require(token["reason"]?.stringValue)
            #expect(!reason.isEmpty && reason != "invalid_client", "a reason in words: \(reason)")
            let missing = try #require(entries.first { $0["path"] == .string("/auth/nope") })
            #expect(missing["outcome"] == .string("not_found"))
            #expect(missing["reason"] == .string("no route for /auth/nope"))
            let method = try #require(entries.first { $0["path"] == .string("/mock/clock") })
            #expect(method["outcome"] == .string("method_not_allowed"))
            #expect(method["reason"]?.stringValue?.contains("use GET, POST") == true)
        }
    }

    @Test func logFieldsCarryClientUserOutcomeAndReason() throws {
        try ControlHarness.run(.inProcess) { h in
            let response = h.server.respond(
                to: RequestBuilder.form(
                    "/auth/token",
                    [
                        ("grant_type", "refresh_token"), ("refresh_token", "nope"), ("client_id", TestKeys.webClientID),
                        ("client_secret", "x"),
                    ]))
            #expect(response.status == 400)
            #expect(response.logFields["client_id"] == TestKeys.webClientID)
            #expect(response.logFields["outcome"] != nil)
            #expect(response.logFields["reason"]?.isEmpty == false)
            let ok = h.server.respond(to: RequestBuilder.get("/auth/keys"))
            #expect(ok.status == 200 && ok.logFields["outcome"] == nil && ok.logFields["reason"] == nil)
        }
    }

    /// One decode of the query and form body per request, however many stages read it (fault rules,
    /// timeline, handler, journal).
    @Test func theFormIsDecodedOncePerRequest() throws {
        let scenario = try ScenarioFiles.loader.load(
            TimelineTests.base + """
                faults:
                  - id: slow-token
                    match: POST /auth/token
                    form: {grant_type: refresh_token}
                    delay: 1ms
                timeline:
                  - after: 1000 POST /auth/token with grant_type=refresh_token
                    do:
                      - revoke_consent: alice
                """, file: ScenarioFiles.directory + "/inline.yaml")
        try ControlHarness.run(.inProcess, scenario: scenario) { h in
            let counter = RequestForm.DecodeCounter()
            RequestForm.$decodeCounter.withValue(counter) {
                _ = h.server.respond(
                    to: RequestBuilder.form(
                        "/auth/token?x=1",
                        [
                            ("grant_type", "refresh_token"), ("refresh_token", "r"), ("client_id", "c"),
                            ("client_secret", "s"),
                        ]
                    ))
            }
            #expect(counter.count == 1)
            #expect(h.server.faults.statuses.first?.fired == 1, "the fault stage read the same decoded form")
        }
    }

    @Test func theCACertificateRouteGoesThroughTheChain() throws {
        let server = try MockServer(
            configuration: AppleEndpoints.Configuration(
                publicURL: "http://127.0.0.1:8080", clock: TestFixtures.clock(), random: TestFixtures.random()),
            options: MockServer.ControlOptions(adminToken: "secret", caCertificatePEM: "-----BEGIN CERTIFICATE-----\n"))
        let get = server.respond(to: RequestBuilder.get("/mock/tls/ca.pem"))
        #expect(get.status == 200, "public: no admin token needed")
        #expect(get.headers["Content-Type"] == "application/x-pem-file")
        let post = server.respond(to: HTTPRequest(method: .post, target: "/mock/tls/ca.pem"))
        #expect(post.status == 401, "a wrong method on a public route is still a control call")
        var authorized = HTTPRequest(method: .post, target: "/mock/tls/ca.pem")
        authorized.headers.add("Authorization", "Bearer secret")
        let wrongMethod = server.respond(to: authorized)
        #expect(wrongMethod.status == 405 && wrongMethod.headers["Allow"] == "GET, HEAD")
        let journal = server.control.journal.entries(path: "/mock/tls/ca.pem")
        #expect(journal.map(\.status) == [200, 401, 405])
    }
}

/// `GET /mock/scenario` and what `POST /mock/reset` clears (issue #12: a mock that explains itself).
@Suite struct ActiveScenarioTests {
    @Test(arguments: Transport.allCases)
    func theActiveScenarioSaysWhereItCameFrom(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            let builtIn = try h.call("GET", "/mock/scenario")
            #expect(builtIn.status == 200)
            #expect(builtIn.json?["source"] == .string("built-in"))
            #expect(builtIn.json?["text"] == .string(ScenarioLoader.defaultScenarioText))
            #expect(builtIn.json?["sha256"]?.stringValue?.count == 64)
            #expect(builtIn.json?["loaded_at"]?.stringValue?.hasSuffix("Z") == true)
        }
    }

    @Test(arguments: Transport.allCases)
    func resetClearsTheJournalAndNotificationHistory(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            _ = try h.send(RequestBuilder.get("/auth/keys"))
            _ = try h.send(RequestBuilder.get("/auth/keys"))
            let reset = try h.call("POST", "/mock/reset")
            #expect(reset.status == 200)
            #expect(reset.json?["journal_cleared"]?.intValue ?? 0 >= 2)
            #expect(reset.json?["notifications_cleared"] == .int(0))
            let journal = try #require(try h.call("GET", "/mock/requests").json?["requests"]?.arrayValue)
            #expect(journal.isEmpty, "only requests after the reset remain: \(journal)")
        }
    }
}
