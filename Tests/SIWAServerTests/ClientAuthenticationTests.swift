import HTTP
import JOSE
import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

/// `client_authentication`: form-body credentials only (Apple's advertised method, the default; a Basic-only
/// request is `invalid_client` as Apple answers it), or also HTTP Basic (a switch).
@Suite struct ClientAuthenticationTests {
    static func basic(_ id: String, _ secret: String) -> String {
        var text = Base64URL.encode(Array("\(id):\(secret)".utf8))
        text = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while text.count % 4 != 0 { text += "=" }
        return "Basic " + text
    }

    static var basicScenario: Scenario {
        var scenario = Scenario.builtIn
        scenario.settings.clientAuthentication = .postOrBasic
        return scenario
    }

    func redeemWithBasic(
        _ harness: EndpointHarness, code: String, authorization: String, extra: [(String, String)] = []
    )
        throws -> TestResponse
    {
        var request = RequestBuilder.form(
            "/auth/token",
            [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TestKeys.redirectURI)] + extra)
        request.headers.add("Authorization", authorization)
        return try harness.send(request)
    }

    func code(_ harness: EndpointHarness) throws -> String {
        try #require(
            try harness.authorize(responseType: "code", scope: nil, responseMode: "query").first { $0.name == "code" }?
                .value)
    }

    @Test(arguments: Transport.allCases)
    func basicIsIgnoredByDefault(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { harness in
            let response = try redeemWithBasic(
                harness, code: try code(harness), authorization: Self.basic(TestKeys.webClientID, try harness.secret()))
            // Apple answers a Basic-only request invalid_client, no description (omniauth-apple#68, #85).
            #expect(response.status == 400)
            #expect(response.text == #"{"error":"invalid_client"}"#)
        }
    }

    @Test(arguments: Transport.allCases)
    func basicRedeemsAndRevokesWhenSwitchedOn(_ transport: Transport) throws {
        try EndpointHarness.run(transport, scenario: Self.basicScenario) { harness in
            let authorization = Self.basic(TestKeys.webClientID, try harness.secret())
            let response = try redeemWithBasic(harness, code: try code(harness), authorization: authorization)
            #expect(response.status == 200, "\(response.text)")
            let refreshToken = try #require(response.json?["refresh_token"]?.stringValue)
            var revoke = RequestBuilder.form("/auth/revoke", [("token", refreshToken)])
            revoke.headers.add("Authorization", authorization)
            #expect(try harness.send(revoke).status == 200)
            #expect(try harness.refresh(refreshToken).error == "invalid_grant")
        }
    }

    @Test(arguments: Transport.allCases)
    func bothMechanismsOrAMalformedHeaderAreRefused(_ transport: Transport) throws {
        try EndpointHarness.run(transport, scenario: Self.basicScenario) { harness in
            let secret = try harness.secret()
            let both = try redeemWithBasic(
                harness, code: try code(harness), authorization: Self.basic(TestKeys.webClientID, secret),
                extra: [("client_id", TestKeys.webClientID), ("client_secret", secret)])
            #expect(both.status == 400)
            #expect(both.error == "invalid_request")
            #expect(both.errorDescription == "Multiple client authentication mechanisms")
            let malformed = try redeemWithBasic(harness, code: try code(harness), authorization: "Basic !!!not-base64")
            #expect(malformed.status == 400)
            #expect(malformed.text == #"{"error":"invalid_client"}"#)
            let noColon = try redeemWithBasic(
                harness, code: try code(harness), authorization: "Basic " + Base64URL.encode(Array("abc".utf8)))
            #expect(noColon.error == "invalid_client")
        }
    }

    @Test func scenarioKeyLoadsAndRejectsUnknownValues() throws {
        let loader = ScenarioLoader(files: { ScenarioLoader.defaultScenarioFiles[$0] })
        let loaded = try loader.load(
            ScenarioLoader.defaultScenarioText + "client_authentication: post_or_basic\n", file: "s.yaml")
        #expect(loaded.settings.clientAuthentication == .postOrBasic)
        do {
            _ = try loader.load(ScenarioLoader.defaultScenarioText + "client_authentication: basic\n", file: "s.yaml")
            Issue.record("an unknown client_authentication value must be refused")
        } catch {
            #expect("\(error)".contains("s.yaml:"), "positioned: \(error)")
            #expect("\(error)".contains("post_or_basic"), "names the allowed values: \(error)")
        }
    }
}
