import HTTP
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import ScenarioModel
import Testing

/// What a scenario replaced at runtime (`PUT /mock/scenario`) changes on Apple's side, and which fault
/// rules `/mock/faults` refuses because they could never do what they say.
@Suite struct ScenarioChangeTests {
    /// The executable's loader for request bodies: no file reader.
    static let loader: ControlEndpoints.ScenarioLoader = { bytes, _ in
        do {
            return .success(
                try ScenarioLoader(readFile: nil).load(String(decoding: bytes, as: UTF8.self), file: "scenario"))
        } catch {
            return .failure(ScenarioLoadFailure(errors: ["\(error)"]))
        }
    }

    @Test(arguments: Transport.allCases)
    func discoveryIssuerFollowsAReplacedScenario(_ transport: Transport) throws {
        try ControlHarness.run(transport, options: MockServer.ControlOptions(scenarioLoader: Self.loader)) { h in
            let before = try h.send(RequestBuilder.get("/.well-known/openid-configuration"))
            #expect(before.json?["issuer"] == .string("https://appleid.apple.com"))
            let put = try h.send(
                RequestBuilder.post(
                    "/mock/scenario", body: "issuer: https://issuer.example\n", contentType: "text/yaml"
                )
                .with(method: "PUT"))
            #expect(put.status == 200, "\(put.text)")
            let after = try h.send(RequestBuilder.get("/.well-known/openid-configuration"))
            #expect(after.json?["issuer"] == .string("https://issuer.example"))
            #expect(after.json?["token_endpoint"] == .string("http://127.0.0.1:8080/auth/token"))
        }
    }

    @Test(arguments: [
        (
            #"{"match": "POST /auth/token", "status": 101}"#,
            "body:1:41: status must be between 200 and 599 (got 101); 1xx is not a final answer"
        ),
        (
            #"{"match": "GET /mock/users", "status": 503}"#,
            "body:1:11: '/mock/users' is a control API path; faults and request triggers apply only to Apple's "
                + "endpoints (/auth/…, /.well-known/…), so it would never match"
        ),
    ])
    func faultsThatCouldNeverWorkAreRefused(_ body: String, _ problem: String) throws {
        try ControlHarness.run(.inProcess) { h in
            let response = try h.send(RequestBuilder.post("/mock/faults", body: body, contentType: "application/json"))
            #expect(response.status == 400, "\(response.text)")
            #expect(response.json?["problems"]?.arrayValue?.compactMap(\.stringValue) == [problem])
            #expect(h.server.faults.statuses.isEmpty)
        }
    }
}
