import HTTPServer

/// The dashboard's files, built once at first use and then served from memory (`StaticAsset`).
///
/// The markup is fixed text: no value from users, scenarios or the journal is ever put into it on the
/// server. The script fills the tables with `textContent` only, and the Content-Security-Policy allows
/// no inline script, no other origin and no framing.
enum DashboardAssets {
    /// Scripts and styles only from this server's own files, calls only to this server, forms only to
    /// this server, never inside a frame.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// Headers every dashboard page carries besides `StaticAsset`'s.
    static let pageHeaders = [
        ("Content-Security-Policy", contentSecurityPolicy), ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
    ]

    /// The script and style sheet, linked from the body (the shared page skeleton's head holds only the
    /// title).
    static let links =
        #"<link rel="stylesheet" href="/mock/ui/dashboard.css"><script src="/mock/ui/dashboard.js" defer></script>"#

    /// The dashboard page (its `ETag` differs from the sign-in page's, so a browser never keeps one for
    /// the other; `no-cache`: which of the two a request gets depends on its session). "Sign out" only
    /// where there is something to sign out of (`--admin-token`).
    static let page = StaticAsset(
        HTML.page(title: "siwa-mock dashboard", body: links + "\n" + pageBody(signOut: false), icon: iconPath),
        contentType: Responses.htmlContentType, cacheControl: "no-cache")
    static let pageWithSignOut = StaticAsset(
        HTML.page(title: "siwa-mock dashboard", body: links + "\n" + pageBody(signOut: true), icon: iconPath),
        contentType: Responses.htmlContentType, cacheControl: "no-cache")
    static let signIn = StaticAsset(
        signInPage(failed: false), contentType: Responses.htmlContentType, cacheControl: "no-cache")

    /// The page's icon, linked from its head, so a browser never asks for `/favicon.ico` (a 404 and a
    /// console error otherwise).
    static let iconPath = "/mock/ui/icon.svg"
    static let icon = StaticAsset(
        ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" "##
            + ##"fill="#1c1c1e"/><circle cx="8" cy="9.5" r="4.5" fill="#fff"/><ellipse cx="9.5" cy="3.5" rx="1.2" "##
            + ##"ry="2" transform="rotate(35 9.5 3.5)" fill="#fff"/></svg>"##,
        contentType: "image/svg+xml", cacheControl: "public, max-age=86400")
    static let signInFailed = signInPage(failed: true)

    static let script = StaticAsset(scriptText, contentType: "text/javascript;charset=UTF-8", cacheControl: "no-cache")
    static let style = StaticAsset(styleText, contentType: "text/css;charset=UTF-8", cacheControl: "no-cache")

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

    /// The form that posts the admin token (in the body) to `/mock/ui/login`.
    static func signInPage(failed: Bool) -> String {
        HTML.page(
            title: "siwa-mock dashboard: sign in",
            body: """
                <link rel="stylesheet" href="/mock/ui/dashboard.css">
                <main class="sign-in">
                <h1>siwa-mock dashboard</h1>
                \(failed ? #"<p class="error" id="sign-in-error">That is not the admin token.</p>"# : "")
                <form method="post" action="/mock/ui/login" id="sign-in">
                <label for="admin-token">Admin token (<code>--admin-token</code>)</label>
                <input type="password" id="admin-token" name="\(DashboardEndpoints.tokenField)" \
                autocomplete="current-password" required autofocus>
                <button type="submit">Sign in</button>
                </form>
                </main>
                """, icon: iconPath)
    }

    static func pageBody(signOut: Bool) -> String {
        """
        <header>
        <h1>siwa-mock</h1>
        <p id="status" role="status" aria-live="polite"></p>
        \(signOut ? #"<form method="post" action="/mock/ui/logout" id="sign-out"><button type="submit">Sign out</button></form>"# : "")
        </header>
        <noscript><p class="error">The dashboard needs JavaScript; the control API works without it.</p></noscript>
        <main>
        <section id="clock-section" aria-labelledby="clock-title">
        <h2 id="clock-title">Clock</h2>
        <p><output id="clock-now">…</output> <span id="clock-frozen"></span></p>
        <form id="clock-advance"><label>Advance by <input name="advance" value="5m" size="8" required></label>
        <button type="submit">Advance</button></form>
        <button type="button" id="clock-freeze">Freeze</button>
        </section>
        <section id="keys-section" aria-labelledby="keys-title">
        <h2 id="keys-title">Signing keys</h2>
        <table id="keys"><thead><tr><th>kid</th><th>published</th><th>signs</th></tr></thead><tbody></tbody></table>
        <button type="button" id="keys-rotate">Rotate</button>
        </section>
        <section id="users-section" aria-labelledby="users-title" class="wide">
        <h2 id="users-title">Users <span id="users-count"></span></h2>
        <label>Filter <input type="search" id="users-filter"></label>
        <table id="users"><thead><tr><th>id</th><th>email</th><th>name</th><th>real user</th><th>state</th>
        <th>per app</th><th>relay forwarding</th><th>actions</th></tr></thead><tbody></tbody></table>
        </section>
        <section id="faults-section" aria-labelledby="faults-title" class="wide">
        <h2 id="faults-title">Faults</h2>
        <table id="faults"><thead><tr><th>id</th><th>match</th><th>action</th><th>enabled</th><th>matched</th>
        <th>fired</th><th></th></tr></thead><tbody></tbody></table>
        </section>
        <section id="journal-section" aria-labelledby="journal-title" class="wide">
        <h2 id="journal-title">Request journal</h2>
        <form id="journal-filters">
        <label>path <input name="path" size="18"></label> <label>client_id <input name="client_id" size="18"></label>
        <label>user <input name="user" size="12"></label>
        <label><input type="checkbox" name="refusals"> refusals only</label>
        <label><input type="checkbox" name="live" checked> live</label>
        <button type="submit">Apply</button>
        </form>
        <table id="journal"><thead><tr><th>#</th><th>time</th><th>request</th><th>client</th><th>user</th>
        <th>status</th><th>outcome</th><th>reason</th><th>parameters</th></tr></thead><tbody></tbody></table>
        </section>
        <section id="mail-section" aria-labelledby="mail-title" class="wide">
        <h2 id="mail-title">Mail through the relay <span id="mail-count"></span></h2>
        <table id="mail"><thead><tr><th>id</th><th>time</th><th>status</th><th>from</th><th>relay address</th>
        <th>delivered to</th><th>subject</th><th>SMTP reply</th><th>reason</th></tr></thead><tbody></tbody></table>
        </section>
        <section id="notifications-section" aria-labelledby="notifications-title" class="wide">
        <h2 id="notifications-title">Notification deliveries</h2>
        <table id="notifications"><thead><tr><th>id</th><th>type</th><th>user</th><th>app group</th><th>url</th>
        <th>status</th><th>attempts</th></tr></thead><tbody></tbody></table>
        </section>
        </main>
        """
    }
}
