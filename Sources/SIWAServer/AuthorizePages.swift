import JSON
import SIWACore
import ScenarioModel

/// The result pages of `/auth/authorize` (docs/CONTRACTS.md, "Headless web flow"; docs/browser.md).
enum AuthorizePages {
    /// `response_mode=form_post`: a form posting `fields` to the redirect_uri, with a visible submit
    /// button, submitted automatically by script.
    static func formPost(to redirectURI: String, fields: [(name: String, value: String)]) -> String {
        var body = "<form method=\"post\" action=\"\(HTML.escape(redirectURI))\">\n"
        for (name, value) in fields { body += HTML.hiddenInput(name: name, value: value) + "\n" }
        body += "<button type=\"submit\">Continue</button>\n</form>\n"
        body += "<script>\(WebAssets.formPostScript)</script>"
        return HTML.page(title: "Sign in with Apple", body: body)
    }

    static func formPostPolicy(to redirectURI: String) -> ContentSecurityPolicy {
        ContentSecurityPolicy(
            scripts: [autoSubmitHash], formActions: [ContentSecurityPolicy.origin(of: redirectURI)].compactMap { $0 })
    }

    /// The hash of the form_post page's one script (`web/authorize/form-post.js`), computed from the
    /// embedded text.
    static let autoSubmitHash = ContentSecurityPolicy.hash(of: WebAssets.formPostScript)

    /// The hash of the web_message page's one script (`web/authorize/web-message.js`: posts the message to
    /// `window.opener` at the redirect_uri's origin, never `*`, then closes the popup).
    static let webMessageHash = ContentSecurityPolicy.hash(of: WebAssets.webMessageScript)

    /// `response_mode=web_message`: the response as data (escaped for the script element) and the script
    /// that posts it; without an opener (the URL opened in a tab) the page says so instead.
    static func webMessage(_ message: JSONValue, toOrigin origin: String?) -> String {
        let data = JSONValue.object(
            JSONObject([("origin", origin.map(JSONValue.string) ?? .null), ("message", message)]))
        let body = """
            <p>Signing in… this window closes by itself.</p>
            <p id="no-opener" hidden>This page was not opened by Sign in with Apple JS (no window.opener with \
            the redirect URI's origin), so it cannot deliver the response. Close it and start again.</p>
            <script type="application/json" id="siwa-web-message">\(HTML.scriptJSON(data))</script>
            <script>\(WebAssets.webMessageScript)</script>
            """
        return HTML.page(title: "Sign in with Apple", body: body)
    }

    static let webMessagePolicy = ContentSecurityPolicy(scripts: [webMessageHash])

    /// What a web_message page posts for the delivered `fields` (`code`, `id_token`, `state`, `user`, or
    /// `error` and `state`): Sign in with Apple JS's `SignInResponseI` / `SignInErrorI`, wrapped as
    /// `{"method":"oauthDone","data":…}` JSON text unless the scenario asks for the bare object
    /// (docs/fidelity.md, "web_message").
    static func webMessagePayload(
        _ fields: [(name: String, value: String)], shape: ScenarioSettings.WebMessageShape
    ) -> JSONValue {
        func field(_ name: String) -> String? { fields.first { $0.name == name }?.value }
        var response = JSONObject()
        if let error = field("error") {
            response["error"] = .string(error)
        } else {
            var authorization = JSONObject()
            for name in ["code", "id_token", "state"] {
                if let value = field(name) { authorization[name] = .string(value) }
            }
            response["authorization"] = .object(authorization)
            if let user = field("user"), let parsed = try? JSONValue.parse(user) {
                response["user"] = parsed
            }
        }
        switch shape {
        case .response:
            return .object(response)
        case .envelope:
            let envelope = JSONValue.object(
                JSONObject([("method", .string("oauthDone")), ("data", .object(response))]))
            return .string(String(decoding: envelope.serialized(), as: UTF8.self))
        }
    }
}
