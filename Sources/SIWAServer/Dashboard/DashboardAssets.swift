import HTTP

/// The dashboard's files, built once at first use and then served from memory (`StaticAsset`). The
/// script, style sheet, icon and page bodies are files under `web/dashboard/`, embedded by `web/embed.py`.
///
/// The markup is fixed text: no value from users, scenarios or the journal is ever put into it on the
/// server. The script fills the tables with `textContent` only, and the Content-Security-Policy allows
/// no inline script, no other origin and no framing.
enum DashboardAssets {
    /// Scripts and styles only from this server's own files, calls only to this server, forms only to
    /// this server, frames only of this server (the mail viewer's HTML part, `MailContent.framePolicy`),
    /// never inside a frame.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        + "frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// Headers every dashboard page carries besides `StaticAsset`'s.
    static let pageHeaders = [
        ("Content-Security-Policy", contentSecurityPolicy), ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
    ]

    /// The dashboard page (its `ETag` differs from the sign-in page's, so a browser never keeps one for
    /// the other; `no-cache`: which of the two a request gets depends on its session). "Sign out" only
    /// where there is something to sign out of (`--admin-token`).
    static let page = StaticAsset(
        HTML.page(title: "siwa-mock dashboard", body: pageBody(signOut: false), icon: iconPath),
        contentType: Responses.htmlContentType, cacheControl: "no-cache")
    static let pageWithSignOut = StaticAsset(
        HTML.page(title: "siwa-mock dashboard", body: pageBody(signOut: true), icon: iconPath),
        contentType: Responses.htmlContentType, cacheControl: "no-cache")
    static let signIn = StaticAsset(
        signInPage(failed: false), contentType: Responses.htmlContentType, cacheControl: "no-cache")

    /// The page's icon, linked from its head, so a browser never asks for `/favicon.ico` (a 404 and a
    /// console error otherwise).
    static let iconPath = "/mock/ui/icon.svg"
    static let icon = StaticAsset(
        WebAssets.dashboardIcon, contentType: "image/svg+xml", cacheControl: "public, max-age=86400")
    static let signInFailed = signInPage(failed: true)

    /// `/mock/ui/dashboard.js`: plain JavaScript, no build step. It reads and changes everything through
    /// the control API (docs/control-api.md) and puts every value into the page with `textContent`,
    /// never as HTML. Each call sends `X-SIWA-Mock-Dashboard`, the proof `AdminAccess` wants from a
    /// cookie-authenticated change; the dashboard's own reads are left out of the journal for it.
    static let script = StaticAsset(
        WebAssets.dashboardScript, contentType: "text/javascript;charset=UTF-8", cacheControl: "no-cache")
    /// `/mock/ui/dashboard.css`: plain CSS, system fonts, no images.
    static let style = StaticAsset(
        WebAssets.dashboardStyle, contentType: "text/css;charset=UTF-8", cacheControl: "no-cache")

    /// A page from memory (or its 304) with the page headers.
    static func respond(with page: StaticAsset, to request: HTTPRequest) -> HTTPResponse {
        var response = page.response(to: request)
        for (name, value) in pageHeaders { response.headers.add(name, value) }
        return response
    }

    /// The sign-in form again after a refusal, with `status`.
    static func signInRefused(_ status: HTTPStatus) -> HTTPResponse {
        var headers = Responses.noStore(contentType: Responses.htmlContentType)
        for (name, value) in pageHeaders { headers.add(name, value) }
        return HTTPResponse(status: status, headers: headers, body: Array(signInFailed.utf8))
    }

    /// Where `web/dashboard/sign-in.html` says a token was refused.
    static let signInErrorMarker = "<!--sign-in-error-->"
    /// Where `web/dashboard/dashboard.html` holds the sign-out form.
    static let signOutMarker = "<!--sign-out-->"

    /// The form that posts the admin token (in the body, field `admin_token`: `DashboardEndpoints.tokenField`,
    /// a test checks they agree) to `/mock/ui/login`.
    static func signInPage(failed: Bool) -> String {
        let error = failed ? #"<p class="error" id="sign-in-error">That is not the admin token.</p>"# : ""
        return HTML.page(
            title: "siwa-mock dashboard: sign in",
            body: WebAssets.dashboardSignInBody.replacing(signInErrorMarker, with: error), icon: iconPath)
    }

    /// The dashboard's body: its links to the script and style sheet, then the sections the script fills.
    static func pageBody(signOut: Bool) -> String {
        let form =
            signOut
            ? #"<form method="post" action="/mock/ui/logout" id="sign-out"><button type="submit">Sign out</button></form>"#
            : ""
        return WebAssets.dashboardBody.replacing(signOutMarker, with: form)
    }
}
