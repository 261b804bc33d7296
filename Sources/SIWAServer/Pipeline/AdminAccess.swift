import HTTP
import JOSE

/// `--admin-token`: who may call the `/mock/` routes that are not public.
///
/// Two ways in: `Authorization: Bearer <token>` (scripts, the CLI), or the dashboard's session cookie,
/// set by `POST /mock/ui/login` after the token was posted in a form (never in a URL). A cookie is
/// ambient authority: the browser attaches it to requests that any page makes, and `SameSite=Strict`
/// does not stop a page on another port of the same host (same site, another origin). So a
/// cookie-authenticated request that can change state must also prove it comes from the dashboard's
/// own page: it carries the `X-SIWA-Mock-Dashboard` header (a cross-origin form cannot send a header,
/// and a cross-origin `fetch` cannot without a CORS preflight the mock never grants), and its `Origin`,
/// when present, names this host. Reads (GET, HEAD) need only the cookie: the same-origin policy keeps
/// their answers from other origins.
package struct AdminAccess: Sendable {
    /// Whether a request may use the protected control routes.
    enum Verdict: Equatable {
        case granted
        /// No bearer token or session cookie, or a wrong one.
        case missing
        /// The session cookie, but no proof the request came from the dashboard's page (why, in words).
        case crossOrigin(String)
    }

    static let cookieName = "siwa_mock_session"
    /// The header the dashboard's `fetch` calls set on every request.
    package static let proofHeader = "X-SIWA-Mock-Dashboard"

    let token: String
    /// The cookie's value: random for each server start, so the token itself is never stored in a
    /// browser's cookie jar, and a restart ends every dashboard session.
    let session: String

    package init(token: String) {
        self.token = token
        var bytes = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeMutableBytes { SecureRandom.fill($0) }
        session = Base16.lowercase(bytes)
    }

    func verdict(for request: HTTPRequest) -> Verdict {
        if let presented = request.headers.bearerToken, Self.equal(presented.utf8, token.utf8) {
            return .granted
        }
        guard hasSession(request) else { return .missing }
        if request.method == .get || request.method == .head { return .granted }
        guard request.headers[Self.proofHeader] != nil else {
            return .crossOrigin(
                "a \(request.method) authenticated by the dashboard's cookie needs the \(Self.proofHeader) header "
                    + "(the dashboard's page sends it; other origins cannot)")
        }
        if request.headers.values(for: "Origin").count > 1 {
            return .crossOrigin("the request has more than one Origin field")
        }
        if let origin = request.headers.origin, !Self.origin(origin, names: request.headers.host) {
            return .crossOrigin("Origin \(origin) is not this server")
        }
        return .granted
    }

    /// Whether the request carries this server's session cookie.
    func hasSession(_ request: HTTPRequest) -> Bool {
        for header in request.headers.cookies {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == Self.cookieName else { continue }
                if Self.equal(trimmed[trimmed.index(after: equals)...].utf8, session.utf8) { return true }
            }
        }
        return false
    }

    /// Whether `token` is the admin token (constant time).
    func accepts(_ token: String) -> Bool { Self.equal(token.utf8, self.token.utf8) }

    /// `Set-Cookie` for a signed-in dashboard: only sent to `/mock/`, unreadable by scripts, and not
    /// attached by the browser to requests that other sites start.
    var sessionCookie: String {
        "\(Self.cookieName)=\(session); Path=/mock; HttpOnly; SameSite=Strict"
    }

    /// `Set-Cookie` that removes the session cookie (sign out).
    static let expiredCookie = "\(cookieName)=; Path=/mock; HttpOnly; SameSite=Strict; Max-Age=0"

    /// `http://host:port` (or https) whose authority is the request's `Host`, compared case-insensitively.
    static func origin(_ origin: String, names host: String?) -> Bool {
        guard let host, let separator = origin.firstRange(of: "://") else { return false }
        let scheme = origin[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return false }
        return origin[separator.upperBound...].lowercased() == host.lowercased()
    }

    /// Compares two byte sequences in time that depends only on their lengths.
    static func equal<A: Collection<UInt8>, B: Collection<UInt8>>(_ given: A, _ expected: B) -> Bool {
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(given, expected) { difference |= a ^ b }
        return difference == 0
    }
}
