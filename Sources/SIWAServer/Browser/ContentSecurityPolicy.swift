import JOSE

/// The Content-Security-Policy of one HTML page (https://www.w3.org/TR/CSP3/): nothing loads or runs but
/// the page's own inline scripts and styles, named by hash; forms go only where the page needs them; no
/// page can be framed (`frame-ancestors 'none'`) or rebased.
struct ContentSecurityPolicy: Sendable, Equatable {
    /// Source expressions of the scripts allowed to run (`'sha256-…'` of inline scripts).
    var scripts: [String] = []
    /// Source expressions of the styles allowed to apply.
    var styles: [String] = []
    /// Where forms may be submitted (`'self'`, origins); empty: nowhere.
    var formActions: [String] = []

    /// The header value.
    var header: String {
        func list(_ sources: [String]) -> String { sources.isEmpty ? "'none'" : sources.joined(separator: " ") }
        return [
            "default-src 'none'", "script-src \(list(scripts))", "style-src \(list(styles))",
            "img-src data:", "form-action \(list(formActions))", "frame-ancestors 'none'", "base-uri 'none'",
        ].joined(separator: "; ")
    }

    /// `'sha256-<base64>'` of an inline script or style element's exact text (CSP3 §8.3).
    static func hash(of text: String) -> String {
        var base64 = Base64URL.encode(SHA256.hash(Array(text.utf8)))
        base64 = String(base64.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        return "'sha256-\(base64)'"
    }

    /// The origin (`scheme://host[:port]`) of an absolute URL, as a CSP source expression; nil when the
    /// URL has none or it holds characters a source expression cannot (so a header cannot be split).
    static func origin(of url: String) -> String? {
        let parts = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0].hasSuffix(":"), parts[1].isEmpty else { return nil }
        let authority = parts[2].prefix { $0 != "?" && $0 != "#" }
        let hostPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let origin = (parts[0] + "//" + hostPort).lowercased()
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-:[]/")
        guard !hostPort.isEmpty, origin.allSatisfy({ allowed.contains($0) }) else { return nil }
        return origin
    }
}
