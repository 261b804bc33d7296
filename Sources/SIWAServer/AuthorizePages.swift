import SIWACore

/// The two HTML pages of the headless-capable web flow (docs/CONTRACTS.md, "Headless web flow").
enum AuthorizePages {
    /// `response_mode=form_post`: a form posting `fields` to the redirect_uri, with a visible submit
    /// button, submitted automatically by script.
    static func formPost(to redirectURI: String, fields: [(name: String, value: String)]) -> String {
        var body = "<form method=\"post\" action=\"\(HTML.escape(redirectURI))\">\n"
        for (name, value) in fields { body += HTML.hiddenInput(name: name, value: value) + "\n" }
        body += "<button type=\"submit\">Continue</button>\n</form>\n"
        body += "<script>document.forms[0].submit();</script>"
        return HTML.page(title: "Sign in with Apple", body: body)
    }

    /// The user picker: re-submits `GET /auth/authorize` with the original parameters plus
    /// `login_hint=<user id>` (Continue) or `cancel=1` (Cancel).
    static func picker(
        clientID: String, users: some Sequence<UserProfile>, parameters: [(name: String, value: String)]
    ) -> String {
        var body = "<h1>Sign in with Apple</h1>\n"
        body += "<p>Choose an account to use with <strong>\(HTML.escape(clientID))</strong>.</p>\n"
        body += "<form method=\"get\" action=\"authorize\">\n"
        for (name, value) in parameters where name != "login_hint" && name != "cancel" {
            body += HTML.hiddenInput(name: name, value: value) + "\n"
        }
        for (index, user) in users.enumerated() {
            let fullName = "\(user.name.firstName) \(user.name.lastName)"
            body += "<label><input type=\"radio\" name=\"login_hint\" value=\"\(HTML.escape(user.id))\""
            body += index == 0 ? " checked>" : ">"
            body += " <span class=\"id\">\(HTML.escape(user.id))</span>"
            body += " <span class=\"name\">\(HTML.escape(fullName))</span>"
            body += " <span class=\"email\">\(HTML.escape(user.deliveredEmail))</span></label><br>\n"
        }
        body += "<button type=\"submit\">Continue</button>\n"
        body += "<button type=\"submit\" name=\"cancel\" value=\"1\">Cancel</button>\n</form>"
        return HTML.page(title: "Sign in with Apple", body: body)
    }
}
