import HTTP
import JSON
import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

/// `response_mode=web_message` (docs/browser.md, docs/fidelity.md): the same validation as the other
/// modes, the response posted to the redirect_uri's origin only, Cancel delivered the same way.
@Suite struct WebMessageTests {
    /// The data block of a web_message page: `{"origin": …, "message": …}`.
    static func data(_ page: TestResponse) throws -> JSONObject {
        let start = try #require(page.text.split(separator: #"id="siwa-web-message">"#, maxSplits: 1).last)
        let json = String(start.prefix { $0 != "<" })
        return try #require(try JSONValue.parse(json).objectValue)
    }

    static func request(_ extra: [(String, String)], scope: String? = "name email") -> HTTPRequest {
        RequestBuilder.authorize(scope: scope, responseMode: "web_message", extra: extra)
    }

    @Test(arguments: Transport.allCases)
    func postsTheResponseToTheRedirectOriginOnly(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let page = try h.send(Self.request([("login_hint", "bob"), ("frame_id", "f-1")]))
            #expect(page.status == 200)
            #expect(page.text.contains("window.opener.postMessage(data.message, data.origin)"))
            #expect(!page.text.contains(#"postMessage(data.message, "*")"#))
            let data = try Self.data(page)
            #expect(data["origin"] == .string("https://app.example.com"), "the origin of TestKeys.redirectURI")
            let text = try #require(data["message"]?.stringValue, "the envelope travels as JSON text")
            let envelope = try #require(try JSONValue.parse(text).objectValue)
            #expect(envelope["method"] == .string("oauthDone"))
            let response = try #require(envelope["data"]?.objectValue)
            let authorization = try #require(response["authorization"]?.objectValue)
            #expect(authorization.keys == ["code", "id_token", "state"] && authorization["state"] == .string("st-123"))
            let user = try #require(response["user"]?.objectValue)
            #expect(user["email"] == .string("k7x2m9q4ab@privaterelay.appleid.com"))
            let code = try #require(authorization["code"]?.stringValue)
            #expect(try h.redeem(code).status == 200)
        }
    }

    @Test(arguments: Transport.allCases)
    func sameValidationAsTheOtherModes(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            expectAppleError(
                try h.send(
                    RequestBuilder.authorize(
                        redirectURI: "https://evil.example.com/", responseMode: "web_message",
                        extra: [("login_hint", "alice")])),
                "invalid_request", "Invalid web redirect url.")
            expectAppleError(
                try h.send(RequestBuilder.authorize(responseMode: "WEB_MESSAGE")), "invalid_request",
                "Invalid response mode")
            expectAppleError(try h.send(Self.request([], scope: "profile")), "invalid_scope")
            #expect(try h.send(Self.request([])).status == 200, "name and email scopes are allowed")
        }
    }

    @Test(arguments: Transport.allCases)
    func cancelPostsUserCancelledAuthorize(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let data = try Self.data(try h.send(Self.request([("cancel", "1")])))
            let text = try #require(data["message"]?.stringValue)
            #expect(text == #"{"method":"oauthDone","data":{"error":"user_cancelled_authorize"}}"#)
        }
    }

    @Test(arguments: Transport.allCases)
    func theScenarioCanAskForTheBareResponse(_ transport: Transport) throws {
        var scenario = Scenario.builtIn
        scenario.settings.webMessageShape = .response
        try EndpointHarness.run(transport, scenario: scenario) { h in
            let data = try Self.data(try h.send(Self.request([("cancel", "1")])))
            #expect(data["message"] == .object(JSONObject([("error", .string("user_cancelled_authorize"))])))
        }
    }

    @Test(arguments: Transport.allCases)
    func reflectedValuesCannotEndTheScript(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let evil = "</script><script>alert(1)</script>\u{2028}&"
            let page = try h.send(
                RequestBuilder.authorize(responseMode: "web_message", state: evil, extra: [("login_hint", "alice")]))
            #expect(AuthorizePageTests.count("<script", in: page.text) == 2, "the data block and the one script")
            let text = try #require(try Self.data(page)["message"]?.stringValue)
            let envelope = try #require(try JSONValue.parse(text).objectValue)
            #expect(envelope["data"]?.objectValue?["authorization"]?.objectValue?["state"] == .string(evil))
        }
    }
}
