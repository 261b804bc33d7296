import Foundation
import HTTP
import JSON
import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

/// docs/fidelity.md "Request shape" and "Refresh responses": what Apple answers before it looks at the
/// grant (missing body credentials, HTTP Basic only, a JSON body), and the refresh-response switches.
@Suite struct RequestShapeTests {
    static let invalidClientBody = #"{"error":"invalid_client"}"#

    static func scenario(_ extra: String) throws -> Scenario {
        try ScenarioLoader(files: { ScenarioLoader.defaultScenarioFiles[$0] })
            .load(ScenarioLoader.defaultScenarioText + extra, file: "s.yaml")
    }

    func code(_ h: EndpointHarness) throws -> String {
        try #require(try h.authorize(responseType: "code", scope: nil, responseMode: "query")[field: "code"])
    }

    @Test(arguments: Transport.allCases)
    func missingBodyCredentialsAreInvalidClientBeforeTheGrantType(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let secret = try h.secret()
            for fields in [
                [("grant_type", "authorization_code"), ("code", "x"), ("client_secret", secret)],
                [("grant_type", "authorization_code"), ("code", "x"), ("client_id", TestKeys.webClientID)],
                [("grant_type", "password"), ("client_id", TestKeys.webClientID), ("client_secret", "")],
                [("client_id", TestKeys.webClientID)],
            ] {
                let response = try h.send(RequestBuilder.form("/auth/token", fields))
                #expect(response.status == 400 && response.text == Self.invalidClientBody, "\(fields)")
            }
        }
    }

    @Test(arguments: Transport.allCases)
    func basicOnlyIsInvalidClientAndConsumesNothing(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let code = try code(h)
            let basic = ClientAuthenticationTests.basic(TestKeys.webClientID, try h.secret())
            var token = RequestBuilder.form(
                "/auth/token",
                [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TestKeys.redirectURI)])
            token.headers.add("Authorization", basic)
            let refused = try h.send(token)
            #expect(refused.status == 400 && refused.text == Self.invalidClientBody)
            let redeemed = try h.redeem(code)
            #expect(redeemed.status == 200, "the refused request left the code redeemable: \(redeemed.text)")
            let refreshToken = try #require(redeemed.json?["refresh_token"]?.stringValue)
            var revoke = RequestBuilder.form("/auth/revoke", [("token", refreshToken)])
            revoke.headers.add("Authorization", basic)
            let refusedRevoke = try h.send(revoke)
            #expect(refusedRevoke.status == 400 && refusedRevoke.text == Self.invalidClientBody)
            #expect(try h.refresh(refreshToken).status == 200, "the refused revoke left the token live")
        }
    }

    @Test(arguments: Transport.allCases)
    func jsonBodyIsInvalidClientByDefault(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let code = try code(h)
            let body = #"{"grant_type":"authorization_code","code":"\#(code)","client_id":"\#(TestKeys.webClientID)"}"#
            for path in ["/auth/token", "/auth/revoke"] {
                let response = try h.send(RequestBuilder.post(path, body: body, contentType: "application/json"))
                #expect(response.status == 400 && response.text == Self.invalidClientBody, "\(path)")
            }
            #expect(try h.redeem(code).status == 200, "a refused JSON request consumes nothing")
        }
    }

    @Test(arguments: Transport.allCases)
    func jsonBodyGetsTheOldAnswersWhenSwitched(_ transport: Transport) throws {
        let scenario = try Self.scenario("non_form_body: unsupported_grant_type\n")
        #expect(scenario.settings.nonFormBody == .unsupportedGrantType)
        try EndpointHarness.run(transport, scenario: scenario) { h in
            let body = #"{"grant_type":"authorization_code"}"#
            expectAppleError(
                try h.send(RequestBuilder.post("/auth/token", body: body, contentType: "application/json")),
                "unsupported_grant_type")
            expectAppleError(
                try h.send(RequestBuilder.post("/auth/revoke", body: body, contentType: "application/json")),
                "invalid_request", "Invalid content type")
        }
    }

    @Test(arguments: Transport.allCases)
    func aMissingCodeIsCheckedAfterTheClient(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let fields = [("grant_type", "authorization_code"), ("client_id", TestKeys.webClientID)]
            expectAppleError(
                try h.send(RequestBuilder.form("/auth/token", fields + [("client_secret", "bad")])), "invalid_client")
            expectAppleError(
                try h.send(RequestBuilder.form("/auth/token", fields + [("client_secret", try h.secret())])),
                "invalid_request", "Missing required parameter: code")
        }
    }

    @Test(arguments: Transport.allCases)
    func refreshResponsesByDefaultCarryAnIDTokenWithoutAuthTime(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let first = try #require(try h.redeem(try code(h)).json)
            #expect(first.keys == ["access_token", "token_type", "expires_in", "refresh_token", "id_token"])
            let signIn = try h.verifiedClaims(try #require(first["id_token"]?.stringValue))
            #expect(signIn["auth_time"] != nil)
            let refreshToken = try #require(first["refresh_token"]?.stringValue)
            let refreshed = try #require(try h.refresh(refreshToken).json)
            #expect(refreshed.keys == ["access_token", "token_type", "expires_in", "id_token"])
            let claims = try h.verifiedClaims(try #require(refreshed["id_token"]?.stringValue))
            #expect(claims["auth_time"] == nil && claims["at_hash"] != nil && claims["sub"] == signIn["sub"])
        }
    }

    @Test(arguments: Transport.allCases)
    func refreshSwitches(_ transport: Transport) throws {
        let withAuthTime = try Self.scenario("refresh_id_token_auth_time: true\n")
        try EndpointHarness.run(transport, scenario: withAuthTime) { h in
            let first = try #require(try h.redeem(try code(h)).json)
            let refreshToken = try #require(first["refresh_token"]?.stringValue)
            let refreshed = try #require(try h.refresh(refreshToken).json)
            let claims = try h.verifiedClaims(try #require(refreshed["id_token"]?.stringValue))
            #expect(claims["auth_time"] == .int(h.clock.nowSeconds))
        }
        let noIDToken = try Self.scenario("refresh_id_token: false\n")
        try EndpointHarness.run(transport, scenario: noIDToken) { h in
            let first = try #require(try h.redeem(try code(h)).json)
            #expect(first["id_token"] != nil, "the code grant keeps its id_token")
            let refreshed = try h.refresh(try #require(first["refresh_token"]?.stringValue))
            #expect(refreshed.status == 200 && refreshed.json?.keys == ["access_token", "token_type", "expires_in"])
        }
    }

    @Test(arguments: Transport.allCases)
    func relayUserWithoutPrivateEmailClaim(_ transport: Transport) throws {
        let text = ScenarioLoader.defaultScenarioText.replacingOccurrences(
            of: "email: bob@example.com\n", with: "email: bob@example.com\n    is_private_email_claim: false\n")
        let scenario = try ScenarioLoader(files: { ScenarioLoader.defaultScenarioFiles[$0] })
            .load(text, file: "s.yaml")
        #expect(scenario.user(id: "bob")?.sendsPrivateEmailClaim == false)
        try EndpointHarness.run(transport, scenario: scenario) { h in
            let fields = try h.authorize(user: "bob")
            let code = try #require(fields[field: "code"])
            let idToken = try #require(try h.redeem(code).json?["id_token"]?.stringValue)
            let claims = try h.verifiedClaims(idToken)
            #expect(claims["email"]?.stringValue?.hasSuffix("@privaterelay.appleid.com") == true)
            #expect(claims["is_private_email"] == nil && claims["email_verified"] == .bool(true))
        }
    }

    /// Apple's body is bare; the tester reads why in the request journal.
    @Test(arguments: Transport.allCases)
    func refusalReasonsReachTheJournal(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            var basicOnly = RequestBuilder.form("/auth/token", [("grant_type", "authorization_code"), ("code", "x")])
            basicOnly.headers.add(
                "Authorization",
                ClientAuthenticationTests.basic(TestKeys.webClientID, try h.secret(TestKeys.webClientID)))
            #expect(try h.send(basicOnly).text == Self.invalidClientBody)
            _ = try h.send(
                RequestBuilder.post("/auth/revoke", body: #"{"token":"x"}"#, contentType: "application/json"))
            let reasons = try #require(try h.send(RequestBuilder.get("/mock/requests")).json?["requests"]?.arrayValue)
                .compactMap { $0["reason"]?.stringValue }
            #expect(
                reasons.contains(
                    "no client_id in the form body; the Authorization: Basic header is not read (client_secret_post only)"
                ),
                "\(reasons)")
            #expect(
                reasons.contains(
                    "Content-Type 'application/json' is not application/x-www-form-urlencoded: no client_id in a form body"
                ),
                "\(reasons)")
        }
    }
}
