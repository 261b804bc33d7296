import HTTP
import JSON
import SIWACore
import SIWAServer

/// What the browser hands the website's `redirect_uri` after Sign in with Apple on the web
/// (https://developer.apple.com/documentation/signinwithapplejs/incorporating-sign-in-with-apple-into-other-platforms).
public struct WebAuthorization: Sendable, Equatable {
    /// The single-use authorization code (redeem it with the Services ID and the same `redirect_uri`).
    public var code: String
    /// The identity token, when `response_type` was `code id_token`.
    public var idToken: String?
    /// The `state` of the request.
    public var state: String?
    /// The `user` form field: JSON text with `name` and `email`, sent only on the first authorization
    /// with scopes, through `form_post`.
    public var user: String?
    /// Every field in the order the browser posts them.
    public var fields: [(name: String, value: String)]

    public static func == (lhs: WebAuthorization, rhs: WebAuthorization) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    init(fields: [(name: String, value: String)]) {
        func value(_ name: String) -> String? { fields.first { $0.name == name }?.value }
        self.fields = fields
        code = value("code") ?? ""
        idToken = value("id_token")
        state = value("state")
        user = value("user")
    }
}

/// How the authorization reaches the `redirect_uri`.
public enum WebResponseMode: String, Sendable {
    /// A browser POST of an auto-submitting form (required when scopes are requested).
    case formPost = "form_post"
    /// A redirect with the fields in the query (`response_type=code` without scopes only).
    case query
    /// A redirect with the fields in the fragment.
    case fragment
}

extension AppleIDMock {
    /// Signs `user` in on the web with the Services ID `client`, as a browser does: `GET /auth/authorize`
    /// (through the mock's request pipeline, so it lands in the journal and meets the scenario's faults),
    /// the user continuing at once (the mock's `login_hint`), and the fields the browser then delivers
    /// to `redirectURI`.
    ///
    /// - Parameters:
    ///   - redirectURI: a Return URL registered for `client`; nil: its first one.
    ///   - scopes: `name`/`email`; any scope needs ``WebResponseMode/formPost``.
    ///   - includeIDToken: `response_type=code id_token` (true) or `code`.
    /// - Throws: ``AppleIDMockError`` `.invalid` with the journal's reason when `/auth/authorize` refuses.
    public func webSignIn(
        user: String, client: String, redirectURI: String? = nil, scopes: [AuthorizationScope] = [.fullName, .email],
        nonce: String? = nil, state: String? = nil, responseMode: WebResponseMode = .formPost,
        includeIDToken: Bool = true
    ) throws(AppleIDMockError) -> WebAuthorization {
        let scenario = provider.scenario
        guard let registered = scenario.client(id: client) else {
            throw AppleIDMockError(.unknownClient(client, among: scenario.clients.map(\.id)))
        }
        guard let redirect = redirectURI ?? registered.redirectURIs.first else {
            let services = scenario.clients.filter { $0.kind == .services }.map(\.id)
            throw AppleIDMockError(
                .invalid, field: "client_id",
                "'\(client)' has no Return URL: web sign-in needs a Services ID"
                    + (services.first.map { " (did you mean '\($0)'?)" } ?? ""))
        }
        var query: [(String, String)] = [
            ("client_id", client), ("redirect_uri", redirect),
            ("response_type", includeIDToken ? "code id_token" : "code"), ("response_mode", responseMode.rawValue),
            ("login_hint", user),
        ]
        let scopeText = scopes.map { $0 == .fullName ? "name" : "email" }.joined(separator: " ")
        if !scopeText.isEmpty { query.append(("scope", scopeText)) }
        if let nonce { query.append(("nonce", nonce)) }
        if let state { query.append(("state", state)) }
        let journal = host.mock.control.journal
        let before = journal.entries().last?.sequence ?? 0
        let request = HTTPRequest(
            method: .get, target: "/auth/authorize?" + URLEncodedForm.encode(query),
            headers: HTTPHeaders([("Host", baseURL.host ?? "127.0.0.1")]))
        let response = host.mock.respond(to: request)
        switch response.status.code {
        case 200:
            if let form = HTMLForm.parse(String(decoding: response.body, as: UTF8.self)), form.action == redirect {
                return WebAuthorization(fields: form.inputs)
            }
        case 302, 303:
            if let location = response.headers.location,
                let separator = location.firstIndex(where: { $0 == "#" || $0 == "?" }),
                let fields = try? URLEncodedForm.decode(Array(location[location.index(after: separator)...].utf8))
            {
                let found = WebAuthorization(fields: fields)
                if found.code.isEmpty, let error = found.fields.first(where: { $0.name == "error" }) {
                    throw AppleIDMockError(.invalid, field: "authorize", "redirected with error \(error.value)")
                }
                return found
            }
        default:
            break
        }
        let entry = journal.entries(path: "/auth/authorize", after: before).last
        let body = String(decoding: response.body.prefix(512), as: UTF8.self)
        throw AppleIDMockError(
            .invalid, field: "authorize",
            entry?.reason ?? "/auth/authorize answered \(response.status.code): \(body)")
    }
}
