import SIWACore
import ScenarioModel

/// The pages that stand in for Apple's sign-in sheet when `/auth/authorize` gets no `login_hint`
/// (docs/browser.md): choose the Apple Account (the scenario's users; Apple signs one in instead), then the
/// consent sheet. On a first authorization with `name` or `email` the sheet asks for the name the app
/// receives and Share My Email / Hide My Email; a returning user, or a request without those scopes, gets
/// the short sheet with Continue alone, as Apple's does. Plain forms: no script, every control reachable
/// by keyboard, Continue first so Enter continues.
enum ConsentSheet {
    /// What a sheet page needs to know about the request.
    struct Context {
        var appName: String
        var authorization: AuthorizationRequest
        /// The request's parameters, re-submitted as hidden fields (minus the sheet's own).
        var parameters: [(name: String, value: String)]
    }

    /// The fields the sheet adds to the request; never re-submitted from the original parameters.
    static let ownFields: Set<String> = [
        "login_hint", "cancel", "account", "consent", "first_name", "last_name", "email_choice",
    ]

    /// CSP of the sheet: its stylesheet only, no script; forms post to the mock, whose answer may redirect to
    /// the redirect_uri (query and fragment modes), so that origin is allowed too.
    static func policy(for authorization: AuthorizationRequest) -> ContentSecurityPolicy {
        ContentSecurityPolicy(
            styles: [styleHash],
            formActions: ["'self'"] + [ContentSecurityPolicy.origin(of: authorization.redirectURI)].compactMap { $0 })
    }

    /// The hash of `web/authorize/sheet.css` (Apple's sheet in shape, without Apple's artwork), computed
    /// from the embedded text, so it follows any edit of the file.
    static let styleHash = ContentSecurityPolicy.hash(of: WebAssets.sheetStyle)

    /// Step 1: choose the account. `GET` back to `/auth/authorize` with `account=<user id>`, or `cancel=1`.
    static func accountChooser(_ context: Context, users: some Collection<UserProfile>) -> String {
        var body = header
        body += "<h1>Sign in with your Apple Account</h1>\n"
        body += "<p class=\"lead\">to continue to <strong>\(HTML.escape(context.appName))</strong></p>\n"
        body += "<form method=\"get\" action=\"authorize\">\n" + hiddenFields(context.parameters)
        body += "<fieldset><legend>Apple Account</legend>\n"
        if users.isEmpty { body += "<p class=\"detail\">The scenario has no users.</p>\n" }
        for (index, user) in users.enumerated() {
            body += "<label class=\"choice\"><input type=\"radio\" name=\"account\" value=\"\(HTML.escape(user.id))\""
            body += index == 0 ? " checked>" : ">"
            body += "<span><span class=\"name\">\(HTML.escape(fullName(user.name)))</span>"
            body += "<span class=\"detail email\">\(HTML.escape(user.email))</span>"
            body += "<span class=\"detail id\">\(HTML.escape(user.id))</span></span></label>\n"
        }
        body += "</fieldset>\n" + buttons(canContinue: !users.isEmpty) + "</form>\n" + footer
        return page(body)
    }

    /// Step 2: the consent sheet for `user`. `POST` to `/auth/authorize` with `account`, `consent=continue`
    /// and the choices, or `cancel=1`.
    static func sheet(_ context: Context, user: UserProfile, relayEmail: String, asksChoices: Bool) -> String {
        let scopes = context.authorization.scopes
        let app = HTML.escape(context.appName)
        var body = header
        if asksChoices {
            body += "<h1>Create your \(app) account using your Apple Account.</h1>\n"
        } else {
            body += "<h1>Do you want to continue using \(app) with your Apple Account?</h1>\n"
        }
        body += "<p class=\"account-email\">\(HTML.escape(user.email))</p>\n"
        body += "<form method=\"post\" action=\"authorize\">\n" + hiddenFields(context.parameters)
        body += HTML.hiddenInput(name: "account", value: user.id) + "\n"
        if asksChoices && scopes.contains(.name) {
            body += "<fieldset class=\"name\"><legend>Name</legend>\n"
            body += textField("first_name", label: "First name", value: user.name.firstName, autocomplete: "given-name")
            body += textField("last_name", label: "Last name", value: user.name.lastName, autocomplete: "family-name")
            body += "</fieldset>\n"
        }
        if asksChoices && scopes.contains(.email) {
            let hide = user.isDeliveredEmailPrivate
            body += "<fieldset class=\"email\"><legend>Email</legend>\n"
            body += choice(
                "share", checked: !hide, title: "Share My Email", detail: HTML.escape(user.email))
            body += choice(
                "hide", checked: hide, title: "Hide My Email",
                detail: "Forward to: \(HTML.escape(user.email))<br><span class=\"relay\">"
                    + "\(HTML.escape(relayEmail))</span>")
            body += "</fieldset>\n"
        }
        body += buttons(canContinue: true, consent: true) + "</form>\n" + footer
        return page(body)
    }

    static func fullName(_ name: PersonName) -> String {
        [name.firstName, name.lastName].filter { !$0.isEmpty }.joined(separator: " ")
    }

    static let header = "<main>\n<p class=\"brand\">Sign in with Apple · siwa-mock</p>\n"

    static let footer = """
        <p class="note">A test double of Apple's sheet served by siwa-mock; no password is asked.</p>
        </main>
        """

    static func page(_ body: String) -> String {
        HTML.page(title: "Sign in with Apple", body: body, style: WebAssets.sheetStyle)
    }

    static func hiddenFields(_ parameters: [(name: String, value: String)]) -> String {
        parameters.filter { !ownFields.contains($0.name) }.map {
            HTML.hiddenInput(name: $0.name, value: $0.value) + "\n"
        }
        .joined()
    }

    static func textField(_ name: String, label: String, value: String, autocomplete: String) -> String {
        "<label class=\"field\">\(label)<input type=\"text\" name=\"\(name)\" value=\"\(HTML.escape(value))\" "
            + "maxlength=\"\(UserProfile.maximumFieldBytes / 4)\" autocomplete=\"\(autocomplete)\"></label>\n"
    }

    static func choice(_ value: String, checked: Bool, title: String, detail: String) -> String {
        "<label class=\"choice\"><input type=\"radio\" name=\"email_choice\" value=\"\(value)\""
            + (checked ? " checked" : "") + "><span><span class=\"title\">\(title)</span>"
            + "<span class=\"detail\">\(detail)</span></span></label>\n"
    }

    /// Continue first, so Enter in a field continues; Cancel names `cancel=1`.
    static func buttons(canContinue: Bool, consent: Bool = false) -> String {
        var html = "<div class=\"buttons\">\n"
        if canContinue {
            html +=
                "<button type=\"submit\" class=\"primary\"" + (consent ? " name=\"consent\" value=\"continue\"" : "")
            html += ">Continue</button>\n"
        }
        html += "<button type=\"submit\" class=\"secondary\" name=\"cancel\" value=\"1\">Cancel</button>\n</div>\n"
        return html
    }
}
