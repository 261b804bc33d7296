import HTTP

/// Without `--admin-token`, a mock bound to a loopback address trusts whoever can connect: only this
/// machine. A web page in the developer's browser is on this machine too, so two browser tricks would
/// reach the control API (docs/security.md):
///
/// - DNS rebinding: a page at `attacker.example` re-resolves its own name to 127.0.0.1 and reads
///   `/mock/` answers as same-origin. Its requests carry `Host: attacker.example`, so a request whose
///   `Host` is not a loopback name is refused.
/// - Cross-origin writes: any page may send a `text/plain` POST (a form or `fetch(…, {mode:"no-cors"})`)
///   without a CORS preflight; the browser labels it with the page's `Origin`, so a request whose
///   `Origin` is not this server (the `Host` it was sent to) is refused. The dashboard's own requests are
///   same-origin and pass; scripts and the CLI send no `Origin`.
///
/// Loopback names, compared without resolving anything: `localhost` and `*.localhost` (RFC 6761 §6.3),
/// IPv4 literals in 127.0.0.0/8, `[::1]` (and `[::ffff:127.x.y.z]`), and `extraNames`: the TLS
/// certificate's names when serving TLS (`appleid.apple.com` impersonated through /etc/hosts), and the
/// `--public-url` host. A request without `Host` (HTTP/1.0 tools; browsers always send one) passes; one
/// whose `Host` is not RFC 3986 `host [":" port]`, or with two `Host` or two `Origin` fields, does not.
package struct LoopbackGuard: Sendable {
    /// Further accepted host names, lowercased, without a port.
    let extraNames: Set<String>

    package init(extraNames: [String] = []) {
        self.extraNames = Set(extraNames.map { Self.normalized($0) })
    }

    /// Why the request is refused (status 403, JSON `error`, `field`, `message`), or nil.
    func refusal(of request: HTTPRequest) -> ControlFailure? {
        // One of each (RFC 9110 §7.2; RFC 6454 §7.2 sends one Origin): with two, which one a check reads
        // and which one a later reader believes could differ.
        for field in ["Host", "Origin"] where request.headers.values(for: field).count > 1 {
            return ControlFailure(
                status: .forbidden, error: field == "Host" ? "forbidden_host" : "cross_origin", field: field,
                "the request has more than one \(field) field: without --admin-token the control API answers only "
                    + "a request with one (docs/security.md)")
        }
        let host = request.headers.host
        if let host {
            guard let name = Self.hostName(ofAuthority: host), accepts(name) else {
                return ControlFailure(
                    status: .forbidden, error: "forbidden_host", field: "Host",
                    "Host \(host) is not a loopback name: without --admin-token the control API answers only requests "
                        + "addressed to localhost, 127.0.0.0/8, [::1]\(extraNames.isEmpty ? "" : " or " + listed) "
                        + "(DNS rebinding protection; docs/security.md)")
            }
        }
        if let origin = request.headers.origin, !AdminAccess.origin(origin, names: host) {
            return ControlFailure(
                status: .forbidden, error: "cross_origin", field: "Origin",
                "Origin \(origin) is not this server (\(host ?? "no Host")): without --admin-token the control API "
                    + "refuses requests that other web pages send (use the dashboard, a script or the CLI; "
                    + "docs/security.md)")
        }
        return nil
    }

    private var listed: String { extraNames.sorted().joined(separator: ", ") }

    func accepts(_ name: String) -> Bool {
        Self.isLoopbackName(name) || extraNames.contains(name)
    }

    /// `localhost`, `*.localhost`, an IPv4 literal in 127.0.0.0/8, or `::1` / `::ffff:127.x.y.z`
    /// (brackets removed); `name` lowercased, without a trailing dot.
    package static func isLoopbackName(_ name: String) -> Bool {
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        if name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        if name.hasPrefix("::ffff:") { return isLoopbackIPv4(name.dropFirst(7)) }
        return isLoopbackIPv4(Substring(name))
    }

    /// Four decimal octets, the first 127.
    static func isLoopbackIPv4(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(part), value <= 255
            else { return false }
        }
        return parts[0] == "127"
    }

    /// The host of a `Host` value, `host [":" port]` by RFC 3986's grammar (`HostAuthority`), lowercased,
    /// brackets and trailing dots dropped; nil when the value is not that (`a.example#.localhost`).
    package static func hostName(ofAuthority authority: String) -> String? {
        guard let parsed = HostAuthority(authority) else { return nil }
        return parsed.isIPLiteral ? parsed.host : normalized(parsed.host)
    }

    static func normalized(_ name: String) -> String {
        var lowered = name.lowercased()
        if lowered.hasPrefix("["), lowered.hasSuffix("]") { lowered = String(lowered.dropFirst().dropLast()) }
        while lowered.hasSuffix(".") { lowered.removeLast() }
        return lowered
    }
}
