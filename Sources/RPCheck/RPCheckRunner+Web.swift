import HTTP
import JSON
import ScenarioModel

extension RPCheckRunner {
    /// A web backend: the URL that starts its Sign in with Apple (it answers with a redirect to the mock's
    /// `/auth/authorize`, setting its session cookie) and the Services ID it signs in with.
    package struct WebTarget: Sendable {
        package var startURL: String
        package var client: String

        package init(startURL: String, client: String = "com.example.web") {
            self.startURL = startURL
            self.client = client
        }
    }

    /// The web surface, as a browser and Apple do it: the backend's start URL, its redirect to the mock's
    /// authorize (with `login_hint`, so no sheet), the form_post page's fields POSTed to the redirect URI
    /// with the backend's cookies; the mock answers the backend's `/auth/token` with the case's token (a
    /// one-shot rule on `POST /auth/token` for the Services ID).
    func runWeb(_ target: WebTarget) throws(RPCheckError) -> [RPCheckResult] {
        try surface(
            "web", .idToken, controlRisk: "a correct sign-in must be accepted, or no refusal below means anything",
            controlFix: "check the acceptance options and the backend's key/issuer/audience settings"
        ) { tamper throws(RPCheckError) in
            try mock.withTampering(tamper?.name, client: target.client, match: "POST /auth/token", send: send) {
                () throws(RPCheckError) in try webVerdict(tamper, target)
            }
        }
    }

    func webVerdict(_ tamper: TamperCase?, _ target: WebTarget) throws(RPCheckError) -> (
        verdict: RPCheckVerdict, detail: String
    ) {
        let start: HTTPClientResponse
        do {
            start = try send(HTTPClientRequest(method: "GET"), target.startURL)
        } catch {
            return (.error("backend unreachable: \(error)"), "no answer")
        }
        guard (300..<400).contains(start.status), let location = start.headers["Location"] else {
            return (.error("the start URL answered \(start.status), not a redirect to /auth/authorize"), "no redirect")
        }
        let cookies = Self.cookies(of: start)
        let authorize =
            location + (location.contains("?") ? "&" : "?") + "login_hint="
            + URLEncodedForm.encodeComponent(user)
        let page: HTTPClientResponse
        do {
            page = try send(HTTPClientRequest(method: "GET"), authorize)
        } catch {
            throw RPCheckError("cannot reach the mock's authorize at \(location): \(error)")
        }
        guard page.status == 200, let form = FormPostPage(html: page.bodyText) else {
            throw RPCheckError(
                "the mock answered authorize with \(page.status), not a form_post page: \(page.bodyText)")
        }
        var headers = HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")])
        if !cookies.isEmpty { headers.add("Cookie", cookies) }
        let post = HTTPClientRequest(
            method: "POST", headers: headers, body: Array(URLEncodedForm.encode(form.fields).utf8))
        return judge(post, to: form.action, tamper: tamper, cookies: cookies)
    }
}

/// The mock's form_post page as a browser reads it: the form's `action` and its hidden inputs.
package struct FormPostPage {
    package var action: String
    package var fields: [(String, String)]

    package init?(html: String) {
        guard let action = html.firstMatch(of: #/<form [^>]*action="([^"]*)"/#)?.1 else { return nil }
        self.action = Self.unescaped(String(action))
        fields = html.matches(of: #/<input type="hidden" name="([^"]*)" value="([^"]*)">/#).map {
            (Self.unescaped(String($0.1)), Self.unescaped(String($0.2)))
        }
    }

    /// HTML's five escapes back to text (the page escapes exactly these).
    static func unescaped(_ text: String) -> String {
        text.replacing("&quot;", with: "\"").replacing("&#39;", with: "'").replacing("&lt;", with: "<")
            .replacing("&gt;", with: ">").replacing("&amp;", with: "&")
    }
}
