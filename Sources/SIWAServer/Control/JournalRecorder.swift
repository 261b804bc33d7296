import HTTPServer
import JOSE
import JSON
import SIWACore

/// Turns one exchange into a `JournalEntry`: selected parameters from the query and form body,
/// secrets as fingerprints, the client and user it concerned, and the outcome.
struct JournalRecorder: Sendable {
    let provider: AppleIdentityProvider
    let journal: RequestJournal

    /// Parameters shown as they are.
    static let plainParameters: Set<String> = [
        "client_id", "grant_type", "response_type", "response_mode", "scope", "redirect_uri", "login_hint", "state",
        "nonce", "token_type_hint", "target", "sub", "user", "cancel", "type",
    ]
    /// Parameters shown only as `sha256:<first 12 hex>`.
    static let secretParameters: Set<String> = [
        "code", "refresh_token", "token", "client_secret", "id_token", "transfer_sub", "access_token",
    ]

    /// What must be known before the request runs (a revoked token cannot be resolved afterwards).
    struct Prelude {
        var parameters: [(name: String, value: String)]
        var clientID: String?
        var user: String?
    }

    func prelude(for request: HTTPRequest) -> Prelude {
        var fields: [(name: String, value: String)] = []
        if let query = request.query, let decoded = try? URLEncodedForm.decode(Array(query.utf8)) { fields += decoded }
        if request.method == "POST", FormBody.isForm(request.headers["Content-Type"]),
            let decoded = try? FormBody.decode(request.body)
        {
            fields += decoded
        }
        if request.path.hasPrefix("/mock/"), !request.body.isEmpty, request.body.count <= 64 * 1024,
            let object = (try? JSONValue.parse(request.body, maxDepth: 8))?.objectValue
        {
            for key in ["client_id", "user", "type"] {
                if let value = object[key]?.stringValue { fields.append((key, value)) }
            }
        }
        var shown: [(name: String, value: String)] = []
        var user: String?
        for (name, value) in fields {
            if Self.plainParameters.contains(name) {
                shown.append((name, value))
            } else if Self.secretParameters.contains(name) {
                shown.append((name, Self.fingerprint(value)))
                if user == nil, ["code", "refresh_token", "token"].contains(name) {
                    user = provider.store.userID(forToken: value)
                }
            }
        }
        if user == nil, let hint = fields.first(where: { $0.name == "login_hint" || $0.name == "user" })?.value {
            user = provider.user(named: hint)?.id
        }
        if user == nil, let bearer = request.headers["Authorization"], bearer.hasPrefix("Bearer "),
            !request.path.hasPrefix("/mock/")
        {
            shown.append(("authorization", Self.fingerprint(String(bearer.dropFirst(7)))))
        }
        let clientID = fields.first { $0.name == "client_id" }?.value
        return Prelude(parameters: shown, clientID: clientID, user: user)
    }

    func record(_ request: HTTPRequest, prelude: Prelude, response: HTTPResponse) {
        journal.append(
            JournalEntry(
                sequence: 0, kind: "request", method: request.method, path: request.path,
                parameters: prelude.parameters, clientID: prelude.clientID, user: prelude.user,
                outcome: Self.outcome(of: response), status: response.status,
                timeMilliseconds: provider.clock.nowMilliseconds))
    }

    /// `ok`, the `error` of a JSON error body, or the `error` carried by a redirect's Location.
    static func outcome(of response: HTTPResponse) -> String {
        if response.status >= 400, let body = try? JSONValue.parse(response.body),
            let error = body["error"]?.stringValue
        {
            return error
        }
        if response.status == 302, let location = response.headers["Location"],
            let field = location.split(whereSeparator: { $0 == "?" || $0 == "#" || $0 == "&" })
                .first(where: { $0.hasPrefix("error=") })
        {
            return String(field.dropFirst("error=".count))
        }
        return response.status >= 400 ? "http_\(response.status)" : "ok"
    }

    /// `sha256:` and the first 12 hex digits of SHA-256 over the value: enough to correlate, never the secret.
    static func fingerprint(_ value: String) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in SHA256.hash(value.utf8).prefix(6) {
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0x0F)])
        }
        return "sha256:" + String(decoding: out, as: UTF8.self)
    }
}
