import HTTP
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import Testing

/// The consent sheet (docs/browser.md): account → sheet → Continue, the email choice kept with the
/// consent, the short sheet for a returning user, Cancel, and the sheet's own errors.
@Suite struct ConsentSheetTests {
    static func sheet(_ h: EndpointHarness, _ extra: [(String, String)], scope: String? = "name email") throws
        -> TestResponse
    {
        try h.send(RequestBuilder.authorize(scope: scope, extra: extra))
    }

    /// Continue on the sheet with `choices`: the delivered form_post fields.
    static func `continue`(_ h: EndpointHarness, as user: String, _ choices: [(String, String)] = []) throws
        -> [(name: String, value: String)]
    {
        let page = try sheet(h, [("account", user), ("consent", "continue")] + choices)
        let form = try #require(HTMLForm.parse(page.text), "\(page.status) \(page.text)")
        #expect(form.method == "post" && form.action == TestKeys.redirectURI)
        return form.inputs
    }

    @Test(arguments: Transport.allCases)
    func firstAuthorizationAsksNameAndEmailThenHidesTheEmail(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let page = try Self.sheet(h, [("account", "alice")])
            #expect(page.status == 200)
            let form = try #require(HTMLForm.parse(page.text))
            #expect(form.method == "post" && form.action == "authorize" && form["account"] == "alice")
            #expect(form["first_name"] == "Alice" && form["last_name"] == "Appleseed")
            #expect(form.inputs.filter { $0.name == "email_choice" }.map(\.value) == ["share", "hide"])
            #expect(page.text.contains("Create your com.example.web account"), "no name: the client_id")
            let relay = try #require(page.text.split(separator: #"class="relay">"#).last?.prefix { $0 != "<" })
            #expect(relay.hasSuffix("@privaterelay.appleid.com"))

            let fields = try Self.continue(
                h, as: "alice", [("first_name", "Ally"), ("last_name", "A."), ("email_choice", "hide")])
            let user = try #require(fields[field: "user"])
            #expect(user == #"{"name":{"firstName":"Ally","lastName":"A."},"email":"\#(relay)"}"#)
            let front = try h.verifiedClaims(try #require(fields[field: "id_token"]))
            #expect(front["email"] == .string(String(relay)) && front["is_private_email"] == .bool(true))
            let code = try #require(fields[field: "code"])
            let tokens = try #require(try h.redeem(code).json)
            let claims = try h.verifiedClaims(try #require(tokens["id_token"]?.stringValue))
            #expect(claims["email"] == .string(String(relay)) && claims["is_private_email"] == .bool(true))

            // Returning: the short sheet, no user, and the choice is kept (also for a headless sign-in).
            let again = try Self.sheet(h, [("account", "alice")])
            let short = try #require(HTMLForm.parse(again.text))
            #expect(short["first_name"] == nil && short["email_choice"] == nil)
            #expect(again.text.contains("continue using com.example.web"))
            let second = try Self.continue(h, as: "alice", [("email_choice", "share")])
            #expect(second[field: "user"] == nil)
            let later = try h.verifiedClaims(try #require(second[field: "id_token"]))
            #expect(later["email"] == .string(String(relay)), "a returning user's choice cannot change")
            let headless = try h.verifiedClaims(try #require(try h.authorize(user: "alice")[field: "id_token"]))
            #expect(headless["email"] == .string(String(relay)))
        }
    }

    @Test(arguments: Transport.allCases)
    func shareMyEmailOverridesTheScenarioDefault(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let page = try Self.sheet(h, [("account", "bob")])
            #expect(page.text.contains(#"value="hide" checked"#), "bob's scenario default is Hide My Email")
            let fields = try Self.continue(h, as: "bob", [("email_choice", "share")])
            #expect(
                fields[field: "user"] == #"{"name":{"firstName":"Bob","lastName":"Bobson"},"email":"bob@example.com"}"#)
            let claims = try h.verifiedClaims(try #require(fields[field: "id_token"]))
            #expect(claims["email"] == .string("bob@example.com") && claims["is_private_email"] == nil)
        }
    }

    @Test(arguments: Transport.allCases)
    func withoutScopesTheSheetIsShortAndNoUserIsSent(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let page = try Self.sheet(h, [("account", "carol")], scope: nil)
            let form = try #require(HTMLForm.parse(page.text))
            #expect(form["first_name"] == nil && form["email_choice"] == nil)
            let delivered = try Self.sheet(h, [("account", "carol"), ("consent", "continue")], scope: nil)
            let fields = HTMLForm.parse(delivered.text)
            #expect(fields?["user"] == nil && fields?["code"] != nil)
        }
    }

    @Test(arguments: Transport.allCases)
    func sheetErrorsAreAnsweredDirectly(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            expectAppleError(try Self.sheet(h, [("account", "mallory")]), "invalid_request", "Unknown account: mallory")
            expectAppleError(
                try Self.sheet(h, [("account", "alice"), ("consent", "continue"), ("email_choice", "maybe")]),
                "invalid_request", "Invalid email_choice: maybe")
            let long = String(repeating: "x", count: 321)
            expectAppleError(
                try Self.sheet(h, [("account", "alice"), ("consent", "continue"), ("first_name", long)]),
                "invalid_request", "Parameter too long: first_name")
            let cancelled = try #require(
                HTMLForm.parse(try Self.sheet(h, [("account", "alice"), ("cancel", "1")]).text))
            #expect(cancelled["error"] == "user_cancelled_authorize")
        }
    }

    @Test(arguments: Transport.allCases)
    func everyPageHasAPolicyAndCannotBeFramed(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let pages = [
                try h.send(RequestBuilder.authorize()),
                try Self.sheet(h, [("account", "alice")]),
                try h.send(RequestBuilder.authorize(extra: [("login_hint", "alice")])),
                try h.send(RequestBuilder.authorize(responseMode: "web_message", extra: [("login_hint", "bob")])),
            ]
            for page in pages {
                let policy = try #require(page.headers["Content-Security-Policy"])
                #expect(policy.contains("default-src 'none'") && policy.contains("frame-ancestors 'none'"))
                #expect(!policy.contains("unsafe-inline") && !policy.contains("*"))
                #expect(page.headers["X-Frame-Options"] == "DENY")
            }
            #expect(
                pages[0].headers["Content-Security-Policy"]?.contains("form-action 'self' https://app.example.com")
                    == true)
            #expect(pages[2].headers["Content-Security-Policy"]?.contains("script-src 'sha256-") == true)
        }
    }
}
