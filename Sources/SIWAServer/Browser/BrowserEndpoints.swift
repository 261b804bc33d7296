import HTTP

/// What the mock serves to browsers besides `/auth/authorize`'s pages: Sign in with Apple JS at the path
/// Apple's CDN uses (`appleid.cdn-apple.com`; the TLS certificate covers that name so a page can keep
/// Apple's URL). Served from memory with `ETag` and `Cache-Control`; the same script for every locale.
///
/// The script is `web/appleid/appleid.auth.js`, embedded by `web/embed.py`: plain JavaScript with no
/// build step, implementing Apple's documented surface (https://developer.apple.com/documentation/signinwithapplejs).
/// docs/browser.md describes it and what differs from Apple's script; a test keeps it under 15 KB.
package enum BrowserEndpoints {
    static let scriptPath = "/appleauth/static/jsapi/appleid/1/{locale}/appleid.auth.js"
    static let script = StaticAsset(WebAssets.appleIDAuthScript, contentType: "text/javascript;charset=UTF-8")

    package static let routes: [Route] = [
        Route(.get, scriptPath, .apple) { context in
            guard isLocale(context.capture("locale")) else { return Responses.notFound() }
            return script.response(to: context.request)
        }
    ]

    /// `en_US`, `fr_FR`, `zh_CN`, `en`: letters with one optional `_` region, as in Apple's URLs.
    static func isLocale(_ text: String) -> Bool {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count)
            && parts.allSatisfy { (2...4).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isLetter } }
    }
}
