/// Which requests a fault rule or timeline trigger applies to: `METHOD /path`, form or query fields,
/// the client and the user (resolved from `code`, `refresh_token`, `token` or `login_hint`).
package struct RequestMatcher: Sendable, Equatable {
    /// HTTP method, or nil for any.
    package var method: String?
    /// Exact path (`/auth/token`), or nil for any Apple endpoint.
    package var path: String?
    /// Form-body or query fields that must be present with exactly these values.
    package var fields: [String: String]
    /// The `client_id` the request names.
    package var clientID: String?
    /// The scenario user id the request acts for.
    package var userID: String?

    package init(
        method: String? = nil, path: String? = nil, fields: [String: String] = [:], clientID: String? = nil,
        userID: String? = nil
    ) {
        self.method = method
        self.path = path
        self.fields = fields
        self.clientID = clientID
        self.userID = userID
    }

    /// Parses `"POST /auth/token"`, `"/auth/keys"` or `"POST"`; nil for anything else.
    package static func parseRequestLine(_ text: String) -> (method: String?, path: String?)? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch parts.count {
        case 1:
            if parts[0].hasPrefix("/") { return (nil, parts[0]) }
            return isMethod(parts[0]) ? (parts[0], nil) : nil
        case 2:
            return isMethod(parts[0]) && parts[1].hasPrefix("/") ? (parts[0], parts[1]) : nil
        default:
            return nil
        }
    }

    /// `/mock/…`: the control API, which fault rules and request triggers never see.
    package static func isControlPath(_ path: String) -> Bool {
        path.hasPrefix("/mock/")
    }

    static func isMethod(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }
    }

    /// `POST /auth/token grant_type=refresh_token client=… user=…`, for listings and logs.
    package var summary: String {
        var parts = [method ?? "*", path ?? "*"]
        parts += fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        if let clientID { parts.append("client=\(clientID)") }
        if let userID { parts.append("user=\(userID)") }
        return parts.joined(separator: " ")
    }

    /// Whether `request` matches; `resolveUser` is only called when a user filter is set.
    package func matches(_ request: RequestFacts, resolveUser: () -> String?) -> Bool {
        if let method, method != request.method { return false }
        if let path, path != request.path { return false }
        for (name, value) in fields where request.field(name) != value { return false }
        if let clientID, request.field("client_id") != clientID { return false }
        if let userID, resolveUser() != userID { return false }
        return true
    }
}

/// What a matcher can see of a request, without the HTTP layer's types.
package struct RequestFacts: Sendable, Equatable {
    package var method: String
    package var path: String
    /// Query fields, then form-body fields.
    package var fields: [(name: String, value: String)]
    /// What is being answered: a request to Apple's endpoints, or a token the mock mints outside one
    /// (a native credential, a notification), which only tampering rules see (`FaultRule.isEligible`).
    package var occasion: Occasion

    package enum Occasion: Sendable, Equatable {
        case request
        case nativeCredential
        case notification
    }

    package init(
        method: String, path: String, fields: [(name: String, value: String)], occasion: Occasion = .request
    ) {
        self.method = method
        self.path = path
        self.fields = fields
        self.occasion = occasion
    }

    package func field(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    /// The token-like value that identifies a user: `code`, `refresh_token`, `token`.
    package var userToken: String? { field("code") ?? field("refresh_token") ?? field("token") }

    package static func == (lhs: RequestFacts, rhs: RequestFacts) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.occasion == rhs.occasion
            && lhs.fields.elementsEqual(rhs.fields) { $0 == $1 }
    }
}
