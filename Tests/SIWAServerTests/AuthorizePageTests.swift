import SIWACore
import SIWAServer
import SIWATestSupport
import ScenarioModel
import Testing

@Suite struct AuthorizePageTests {
    @Test(arguments: Transport.allCases)
    func validationErrorsAreAnsweredDirectly(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            expectAppleError(
                try h.send(RequestBuilder.authorize(redirectURI: "https://evil.example.com/")), "invalid_request",
                "Invalid web redirect url.")
            expectAppleError(
                try h.send(RequestBuilder.authorize(responseType: "code id_token", scope: nil, responseMode: "query")),
                "invalid_request", "Invalid response mode")
            expectAppleError(
                try h.send(RequestBuilder.authorize(responseType: "code", scope: "name email", responseMode: "query")),
                "invalid_request", "response_mode must be form_post when name or email scope is requested.")
            expectAppleError(
                try h.send(RequestBuilder.authorize(responseType: "id_token")), "invalid_request",
                "Invalid response type")
            expectAppleError(try h.send(RequestBuilder.authorize(scope: "profile")), "invalid_scope")
            let bundleID = try h.send(RequestBuilder.authorize(clientID: TestKeys.nativeClientID))
            expectAppleError(bundleID, "invalid_request", "Invalid client id or web redirect url.")
            #expect(bundleID.headers["Server"] == "Apple")
            expectAppleError(try h.send(RequestBuilder.authorize(clientID: "com.unknown")), "invalid_client")
            expectAppleError(
                try h.send(RequestBuilder.authorize(extra: [("login_hint", "mallory")])), "invalid_request",
                "Unknown login_hint: mallory")
        }
    }

    @Test(arguments: Transport.allCases)
    func accountChooserListsUsersAndResubmitsOriginalParameters(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let page = try h.send(RequestBuilder.authorize(extra: [("frame_id", "f-1")]))
            #expect(page.status == 200 && page.headers["Content-Type"] == "text/html;charset=UTF-8")
            for text in ["alice", "Alice Appleseed", "bob", "Bob Bobson", "carol", "carol@example.net"] {
                #expect(page.text.contains(text))
            }
            let form = try #require(HTMLForm.parse(page.text))
            #expect(form.method == "get" && form.action == "authorize")
            #expect(form["client_id"] == TestKeys.webClientID && form["redirect_uri"] == TestKeys.redirectURI)
            #expect(form["state"] == "st-123" && form["nonce"] == "n-456" && form["response_mode"] == "form_post")
            #expect(form["frame_id"] == "f-1", "parameters the mock does not read are kept")
            #expect(form.inputs.filter { $0.name == "account" }.map(\.value) == ["alice", "bob", "carol"])
            #expect(page.text.contains(#"name="cancel" value="1""#))
        }
    }

    @Test(arguments: Transport.allCases)
    func cancelDeliversUserCancelledAuthorize(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let posted = try h.send(RequestBuilder.authorize(extra: [("cancel", "1")]))
            let form = try #require(HTMLForm.parse(posted.text))
            #expect(form.inputs.map(\.name) == ["error", "state"])
            #expect(form["error"] == "user_cancelled_authorize" && form["state"] == "st-123")
            let redirected = try h.send(
                RequestBuilder.authorize(
                    responseType: "code", scope: nil, responseMode: "query", extra: [("cancel", "1")]))
            #expect(
                redirected.headers["Location"] == TestKeys.redirectURI + "?error=user_cancelled_authorize&state=st-123")
        }
    }

    @Test(arguments: Transport.allCases)
    func userControlledValuesAreEscaped(_ transport: Transport) throws {
        var scenario = Scenario.builtIn
        scenario.users[0].name.firstName = "<script>alert(1)</script>"
        try EndpointHarness.run(transport, scenario: scenario) { h in
            let evil = #""><script>alert('x')</script>"#
            let picker = try h.send(RequestBuilder.authorize(state: evil))
            let plain = try Self.pickerWithoutState(h)
            #expect(Self.count("<script", in: picker.text) == 0)
            #expect(Self.count("<", in: picker.text) == Self.count("<", in: plain), "no tag injected")
            #expect(HTMLForm.parse(picker.text)?["state"] == evil)
            let posted = try h.send(RequestBuilder.authorize(state: evil, extra: [("login_hint", "alice")]))
            #expect(Self.count("<script", in: posted.text) == 1, "only the auto-submit script")
            let form = try #require(HTMLForm.parse(posted.text))
            #expect(form["state"] == evil)
            #expect(form["user"]?.contains("<script>alert(1)</script>") == true, "the JSON keeps the raw name")
        }
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.split(separator: needle, omittingEmptySubsequences: false).count - 1
    }

    static func pickerWithoutState(_ h: EndpointHarness) throws -> String {
        try h.send(RequestBuilder.authorize(state: "plain")).text
    }
}
