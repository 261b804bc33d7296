import JOSE
import JSON
import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

@Suite struct WebFlowTests {
    @Test(arguments: Transport.allCases)
    func hybridFormPostFlowEndToEnd(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let now = h.clock.nowSeconds
            let fields = try h.authorize(user: "bob")
            #expect(fields.map(\.name) == ["state", "code", "id_token", "user"], "Apple's form_post order")
            #expect(fields[field: "state"] == "st-123")
            #expect(
                fields[field: "user"]
                    == #"{"name":{"firstName":"Bob","lastName":"Bobson"},"email":"k7x2m9q4ab@privaterelay.appleid.com"}"#
            )
            let code = try #require(fields[field: "code"])
            #expect(code.hasPrefix("c") && code.split(separator: ".").count == 4)

            let front = try h.verifiedClaims(try #require(fields[field: "id_token"]))
            #expect(front["c_hash"] == .string(IDTokenMaker.halfHash(code)) && front["at_hash"] == nil)
            #expect(front["nonce"] == .string("n-456") && front["aud"] == .string(TestKeys.webClientID))

            let response = try h.redeem(code)
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "application/json;charset=UTF-8")
            #expect(response.headers["Cache-Control"] == "no-store" && response.headers["Pragma"] == "no-cache")
            let body = try #require(response.json)
            #expect(body.keys == ["access_token", "token_type", "expires_in", "refresh_token", "id_token"])
            #expect(body["token_type"] == .string("Bearer") && body["expires_in"] == .int(3600))
            let accessToken = try #require(body["access_token"]?.stringValue)
            #expect(accessToken.hasPrefix("a") && body["refresh_token"]?.stringValue?.hasPrefix("r") == true)

            let claims = try h.verifiedClaims(try #require(body["id_token"]?.stringValue))
            #expect(claims["iss"] == .string("https://appleid.apple.com"))
            #expect(claims["aud"] == .string(TestKeys.webClientID))
            #expect(claims["sub"] == .string("001234.1b2c3d4e5f60718293a4b5c6d7e8f90a.2222"))
            #expect(
                claims["iat"] == .int(now) && claims["exp"] == .int(now + 86400) && claims["auth_time"] == .int(now))
            #expect(claims["at_hash"] == .string(IDTokenMaker.halfHash(accessToken)))
            #expect(claims["nonce"] == .string("n-456") && claims["nonce_supported"] == .bool(true))
            #expect(claims["email"] == .string("k7x2m9q4ab@privaterelay.appleid.com"))
            #expect(claims["email_verified"] == .bool(true) && claims["is_private_email"] == .bool(true))
            #expect(claims["real_user_status"] == nil, "never from the web flow")
        }
    }

    @Test(arguments: Transport.allCases)
    func userIsSentOnlyOnFirstAuthorizationUntilRevoked(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let first = try h.authorize()
            #expect(first[field: "user"] != nil)
            let second = try h.authorize()
            #expect(second[field: "user"] == nil)
            let secondCode = try #require(second[field: "code"])
            let tokens = try #require(try h.redeem(secondCode).json)
            let refreshToken = try #require(tokens["refresh_token"]?.stringValue)

            let revoked = try h.revoke(refreshToken, hint: "refresh_token")
            #expect(revoked.status == 200 && revoked.body.isEmpty)
            expectAppleError(try h.refresh(refreshToken), "invalid_grant")
            #expect(try h.revoke(refreshToken).status == 200, "revoke is idempotent")
            let third = try h.authorize()
            #expect(
                third[field: "user"]
                    == #"{"name":{"firstName":"Alice","lastName":"Appleseed"},"email":"alice@example.com"}"#)
        }
    }

    @Test(arguments: Transport.allCases)
    func codeReuseAndExpiry(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let code = try #require(try h.authorize()[field: "code"])
            #expect(try h.redeem(code).status == 200)
            expectAppleError(try h.redeem(code), "invalid_grant", "The code has already been used.")

            let late = try #require(try h.authorize()[field: "code"])
            h.clock.advance(seconds: 301)
            expectAppleError(try h.redeem(late), "invalid_grant", "The code has expired or has been revoked.")
        }
    }

    @Test(arguments: Transport.allCases)
    func refreshReturnsNoRefreshToken(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let code = try #require(try h.authorize(scope: "email")[field: "code"])
            let tokens = try #require(try h.redeem(code).json)
            h.clock.advance(seconds: 7200)
            let response = try h.refresh(try #require(tokens["refresh_token"]?.stringValue))
            #expect(response.status == 200)
            let body = try #require(response.json)
            #expect(body.keys == ["access_token", "token_type", "expires_in", "id_token"])
            let claims = try h.verifiedClaims(try #require(body["id_token"]?.stringValue))
            #expect(claims["nonce"] == nil && claims["email"] == .string("alice@example.com"))
            #expect(
                claims["at_hash"] == .string(IDTokenMaker.halfHash(try #require(body["access_token"]?.stringValue))))
        }
    }

    @Test(arguments: Transport.allCases)
    func clientAndRedirectMismatches(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let code = try #require(try h.authorize()[field: "code"])
            expectAppleError(
                try h.redeem(code, clientID: TestKeys.nativeClientID, redirectURI: nil), "invalid_grant",
                "client_id mismatch. The code was not issued to com.example.app.")
            expectAppleError(
                try h.redeem(code, redirectURI: "https://localhost:8443/callback"), "invalid_grant",
                "redirect_uri mismatch. The code was not issued to https://localhost:8443/callback.")
            #expect(try h.redeem(code).status == 200)
        }
    }

    @Test(arguments: Transport.allCases)
    func queryAndFragmentDelivery(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let query = try h.send(
                RequestBuilder.authorize(
                    responseType: "code", scope: nil, responseMode: nil, state: "a b&c",
                    extra: [("login_hint", "carol")]))
            #expect(query.status == 302)
            let location = try #require(query.headers["Location"])
            #expect(location.hasPrefix(TestKeys.redirectURI + "?code=c") && location.hasSuffix("&state=a%20b%26c"))

            let fragment = try h.authorize(user: "carol", responseType: "code id_token", scope: nil, responseMode: nil)
            #expect(fragment.map(\.name) == ["code", "id_token", "state"])
            let claims = try h.verifiedClaims(try #require(fragment[field: "id_token"]))
            #expect(claims["email"] == nil, "no email scope, no email claim")
        }
    }

    @Test(arguments: Transport.allCases)
    func stringBooleanStyle(_ transport: Transport) throws {
        var scenario = Scenario.builtIn
        scenario.settings.booleanStyle = .string
        try EndpointHarness.run(transport, scenario: scenario) { h in
            let fields = try h.authorize(user: "bob", scope: "email")
            let claims = try h.verifiedClaims(try #require(fields[field: "id_token"]))
            #expect(claims["email_verified"] == .string("true") && claims["is_private_email"] == .string("true"))
            #expect(claims["nonce_supported"] == .bool(true))
        }
    }
}
