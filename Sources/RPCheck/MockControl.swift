import HTTP
import JSON

/// The running mock's control API, as `rp-check` drives it: one-shot tampering rules, native
/// credentials, notifications and their delivery records.
package struct MockControl: Sendable {
    package var baseURL: String
    package var adminToken: String?
    /// The id of the one rule `rp-check` adds and removes around each case.
    static let ruleID = "rp-check"

    package init(baseURL: String, adminToken: String? = nil) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.adminToken = adminToken
    }

    /// A control call; its JSON answer. - Throws: unreachable, or a non-2xx answer (with its body).
    func call(
        _ method: String, _ path: String, _ body: JSONValue? = nil,
        send: (HTTPClientRequest, String) throws -> HTTPClientResponse
    ) throws(RPCheckError) -> JSONValue {
        var headers = HTTPHeaders()
        if body != nil { headers.add("Content-Type", "application/json") }
        if let adminToken { headers.add("Authorization", "Bearer \(adminToken)") }
        let request = HTTPClientRequest(method: method, target: path, headers: headers, body: body?.serialized() ?? [])
        let response: HTTPClientResponse
        do {
            response = try send(request, baseURL + path)
        } catch {
            throw RPCheckError("cannot reach the mock at \(baseURL): \(error)")
        }
        guard (200..<300).contains(response.status) else {
            throw RPCheckError("the mock answered \(method) \(path) with \(response.status): \(response.bodyText)")
        }
        return (try? JSONValue.parse(response.body)) ?? .null
    }

    /// Runs `body` with a one-shot `tamper:` rule for `tamper` installed (none for the control), and
    /// removes the rule afterwards whether or not it fired.
    func withTampering<T>(
        _ tamper: String?, client: String? = nil, match: String? = nil,
        send: (HTTPClientRequest, String) throws -> HTTPClientResponse,
        _ body: () throws(RPCheckError) -> T
    ) throws(RPCheckError) -> T {
        guard let tamper else { return try body() }
        var rule = JSONObject([("id", .string(Self.ruleID)), ("times", .int(1)), ("tamper", .string(tamper))])
        if let client { rule["client"] = .string(client) }
        if let match { rule["match"] = .string(match) }
        _ = try call("POST", "/mock/faults", .object(rule), send: send)
        defer { _ = try? call("DELETE", "/mock/faults/\(Self.ruleID)", send: send) }
        return try body()
    }
}
