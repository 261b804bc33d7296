import HTTP

/// The dashboard at `/mock/ui` (docs/browser.md): one page, one script and one style sheet, served
/// from memory. The page holds no data: its script reads and changes everything through the control
/// API, the same calls a test makes, so there is no second code path.
///
/// With `--admin-token` the page is a sign-in form until the token is posted to `/mock/ui/login`
/// (form body only, never the URL), which sets the session cookie `AdminAccess` checks.
package struct DashboardEndpoints: Sendable {
    let access: AdminAccess?

    package init(access: AdminAccess?) {
        self.access = access
    }

    static let path = "/mock/ui"
    /// The form field that carries the admin token to `POST /mock/ui/login`.
    static let tokenField = "admin_token"

    /// The routes' facts: control routes, public (the pages carry no data, and every call the script
    /// makes is checked); the page and its files stay out of the journal, signing in and out do not.
    static let facts = RouteFacts.control.publicly
    static let files = facts.unjournaled

    /// The routes.
    package var routes: [Route] {
        [
            Route(.get, Self.path, Self.files) { context in page(for: context.request) },
            Route(.get, "\(Self.path)/dashboard.js", Self.files) {
                DashboardAssets.script.response(to: $0.request)
            },
            Route(.get, "\(Self.path)/dashboard.css", Self.files) {
                DashboardAssets.style.response(to: $0.request)
            },
            Route(.get, DashboardAssets.iconPath, Self.files) { DashboardAssets.icon.response(to: $0.request) },
            Route(.post, "\(Self.path)/login", Self.facts) { login(&$0) },
            Route(.post, "\(Self.path)/logout", Self.facts) { _ in
                var response = Self.seeOther(Self.path)
                response.headers.add("Set-Cookie", AdminAccess.expiredCookie)
                return response
            },
        ]
    }

    /// The dashboard, or the sign-in form while an admin token is required and not presented.
    func page(for request: HTTPRequest) -> HTTPResponse {
        if let access, access.verdict(for: request) != .granted {
            return DashboardAssets.respond(with: DashboardAssets.signIn, to: request)
        }
        return DashboardAssets.respond(
            with: access == nil ? DashboardAssets.page : DashboardAssets.pageWithSignOut, to: request)
    }

    /// `POST /mock/ui/login` with `admin_token=…` in a form body: 303 to the dashboard with the session
    /// cookie, 401 with the form again for a wrong token, 400 when the field is missing or in the URL.
    /// Without `--admin-token` there is nothing to sign in to: a well-formed sign-in goes to the page.
    func login(_ context: inout RequestContext) -> HTTPResponse {
        if context.form.query.fields.contains(where: { $0.name == Self.tokenField }) {
            context.outcome = "invalid_request"
            context.reason = "the admin token goes in the form body, never in the URL"
            return DashboardAssets.signInRefused(.badRequest)
        }
        guard let token = context.form.body.fields.first(where: { $0.name == Self.tokenField })?.value else {
            context.outcome = "invalid_request"
            context.reason = "no \(Self.tokenField) field in an application/x-www-form-urlencoded body"
            return DashboardAssets.signInRefused(.badRequest)
        }
        guard let access else { return Self.seeOther(Self.path) }
        guard access.accepts(token) else {
            context.outcome = "unauthorized"
            context.reason = "wrong admin token in the dashboard's sign-in form"
            return DashboardAssets.signInRefused(.unauthorized)
        }
        var response = Self.seeOther(Self.path)
        response.headers.add("Set-Cookie", access.sessionCookie)
        return response
    }

    static func seeOther(_ location: String) -> HTTPResponse {
        HTTPResponse(status: 303, headers: HTTPHeaders([("Location", location), ("Cache-Control", "no-store")]))
    }
}
