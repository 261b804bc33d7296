import JSON
import SIWACore
import SIWATestSupport
import Testing

@Suite struct EndpointBasicsTests {
    @Test(arguments: Transport.allCases)
    func discoveryIsGolden(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let response = try h.send(RequestBuilder.get("/.well-known/openid-configuration"))
            #expect(response.status == 200 && response.headers["Content-Type"] == "application/json;charset=UTF-8")
            #expect(
                response.body
                    == DiscoveryDocument.serialized(
                        publicURL: "http://127.0.0.1:8080", issuer: "https://appleid.apple.com"))
            #expect(response.json?["jwks_uri"] == .string("http://127.0.0.1:8080/auth/keys"))
        }
    }

    @Test(arguments: Transport.allCases)
    func keysArePublished(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let response = try h.send(RequestBuilder.get("/auth/keys"))
            #expect(response.status == 200 && response.headers["Content-Type"] == "application/json;charset=UTF-8")
            let keys = try #require(response.json?["keys"]?.arrayValue)
            #expect(
                keys.compactMap { $0.objectValue?["kid"]?.stringValue } == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm"])
            #expect(keys.allSatisfy { $0.objectValue?["n"]?.stringValue?.count == 342 })
        }
    }

    @Test(arguments: Transport.allCases)
    func unknownPathsAndWrongMethods(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let missing = try h.send(RequestBuilder.get("/auth/userinfo"))
            #expect(missing.status == 404 && missing.json != nil)
            let wrong = try h.send(RequestBuilder.get("/auth/token"))
            #expect(wrong.status == 405 && wrong.headers["Allow"] == "POST")
            let post = try h.send(RequestBuilder.form("/auth/keys", []))
            #expect(post.status == 405)
        }
    }

    @Test(arguments: Transport.allCases)
    func tokenEndpointErrors(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let json = try h.send(
                RequestBuilder.post(
                    "/auth/token", body: #"{"grant_type":"authorization_code"}"#, contentType: "application/json"))
            // Apple reads no body credentials from JSON: invalid_client (docs/fidelity.md, "Request shape").
            expectAppleError(json, "invalid_client")
            #expect(json.text == #"{"error":"invalid_client"}"#)
            let secret = try h.secret()
            let base: [(String, String)] = [("client_id", TestKeys.webClientID), ("client_secret", secret)]
            expectAppleError(try h.send(RequestBuilder.form("/auth/token", base)), "unsupported_grant_type")
            expectAppleError(
                try h.send(RequestBuilder.form("/auth/token", base + [("grant_type", "password")])),
                "unsupported_grant_type")
            expectAppleError(
                try h.send(RequestBuilder.form("/auth/token", base + [("grant_type", "authorization_code")])),
                "invalid_request")
            expectAppleError(
                try h.send(
                    RequestBuilder.form(
                        "/auth/token", base + [("grant_type", "authorization_code"), ("code", "x"), ("code", "y")])),
                "invalid_request")
            func badSecret(code: String) throws -> TestResponse {
                try h.send(
                    RequestBuilder.form(
                        "/auth/token",
                        [
                            ("grant_type", "authorization_code"), ("code", code), ("client_id", TestKeys.webClientID),
                            ("client_secret", "nope"), ("redirect_uri", TestKeys.redirectURI),
                        ]))
            }
            // The grant is looked up first: a bogus code is invalid_grant whatever the secret.
            expectAppleError(try badSecret(code: "x"), "invalid_grant", "The code has expired or has been revoked.")
            let badSecret = try badSecret(code: try #require(try h.authorize()[field: "code"]))
            expectAppleError(badSecret, "invalid_client")
            #expect(badSecret.json?.keys == ["error"], "invalid_client carries no description")
            let charset = try h.send(
                RequestBuilder.form(
                    "/auth/token", base + [("grant_type", "authorization_code"), ("code", "cunknown")],
                    contentType: "application/x-www-form-urlencoded; charset=UTF-8"))
            expectAppleError(charset, "invalid_grant", "The code has expired or has been revoked.")
            let badEncoding = try h.send(
                RequestBuilder.post(
                    "/auth/token", body: "grant_type=%zz", contentType: "application/x-www-form-urlencoded"))
            expectAppleError(badEncoding, "invalid_request")
        }
    }

    @Test(arguments: Transport.allCases)
    func clientCredentialsGrant(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let base: [(String, String)] = [
                ("grant_type", "client_credentials"), ("client_id", TestKeys.webClientID),
                ("client_secret", try h.secret()),
            ]
            let ok = try h.send(RequestBuilder.form("/auth/token", base + [("scope", "user.migration")]))
            #expect(ok.status == 200 && ok.json?.keys == ["access_token", "token_type", "expires_in"])
            expectAppleError(
                try h.send(RequestBuilder.form("/auth/token", base + [("scope", "openid")])), "invalid_scope")
            expectAppleError(try h.send(RequestBuilder.form("/auth/token", base)), "invalid_request")
        }
    }

    @Test(arguments: Transport.allCases)
    func revokeEndpointErrors(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            #expect(try h.revoke("never-issued").status == 200)
            expectAppleError(try h.revoke("x", hint: "id_token"), "invalid_request")
            // No client_secret in the body: invalid_client with no description (docs/fidelity.md).
            let noSecret = try h.send(
                RequestBuilder.form("/auth/revoke", [("client_id", TestKeys.webClientID), ("token", "x")]))
            expectAppleError(noSecret, "invalid_client")
            #expect(noSecret.text == #"{"error":"invalid_client"}"#)
            func badSecret(_ token: String) throws -> TestResponse {
                try h.send(
                    RequestBuilder.form(
                        "/auth/revoke",
                        [("client_id", TestKeys.webClientID), ("client_secret", "bad"), ("token", token)]))
            }
            // An unknown token is 200 before the client is checked (Apple's live answer to a fake client).
            let unknown = try badSecret("x")
            #expect(unknown.status == 200 && unknown.body.isEmpty)
            expectAppleError(
                try h.send(
                    RequestBuilder.post("/auth/revoke", body: #"{"token":"x"}"#, contentType: "application/json")),
                "invalid_client")
            let code = try #require(try h.authorize()[field: "code"])
            let access = try #require(try h.redeem(code).json?["access_token"]?.stringValue)
            expectAppleError(try badSecret(access), "invalid_client")
            expectAppleError(try h.revoke(access, hint: "refresh_token"), "invalid_request")
            expectAppleError(try h.revoke(access, clientID: TestKeys.nativeClientID), "invalid_request")
        }
    }
}
