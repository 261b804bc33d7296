/// Applies `/auth/authorize` rules to decoded query (or form) parameters.
///
/// Check order (Apple's own order is not documented): duplicates, client_id, redirect_uri,
/// response_type, scope, response_mode, then the combination rules. Every failure is answered
/// directly (HTTP 400 JSON, TN3107), never redirected: Apple only redirects `user_cancelled_authorize`.
///
/// Decisions where Apple is silent, kept here so tests and docs agree:
/// - Unknown client_id → `invalid_client` (TN3107: "no primary app or Services ID exists for that
///   client_id"); a native App ID (bundle ID) used on the web → `invalid_request` "Invalid client id or web
///   redirect url." (reports 2024–2026, docs/fidelity.md).
/// - Missing or unregistered redirect_uri → `invalid_request` "Invalid web redirect url." ([obs]).
/// - Rule 2 (`code id_token` with `query`) is checked before rule 1 and answers "Invalid response
///   mode" (forum 660531); rule 1 (name/email scope without `form_post`) answers "response_mode must be
///   form_post when name or email scope is requested." (oauth-io/oauth-js#104, nov/apple_id#6,
///   getfider/fider#1357). Both are `invalid_request`; docs/fidelity.md has the evidence.
/// - Parameters this validator does not know (e.g. `login_hint`, `cancel`) are ignored here.
import ScenarioFormat
import ScenarioModel

package struct AuthorizationRequestValidator: Sendable {
    package let scenario: Scenario

    package init(scenario: Scenario) {
        self.scenario = scenario
    }

    /// Validates decoded parameters; the error is what to render directly.
    package func validate(_ parameters: [(name: String, value: String)]) -> Result<AuthorizationRequest, AppleError> {
        var seen = Set<String>()
        for (name, _) in parameters where !seen.insert(name).inserted {
            return .failure(.invalidRequest("Duplicate parameter: \(name)"))
        }
        if let tooLong = ParameterLimits.check(parameters) { return .failure(tooLong) }
        func value(_ name: String) -> String? { parameters.first { $0.name == name }?.value }

        guard let clientID = value("client_id"), !clientID.isEmpty else {
            return .failure(.invalidRequest("Missing client_id"))
        }
        guard let client = scenario.client(id: clientID) else { return .failure(.invalidClient) }
        guard client.kind == .services else { return .failure(.invalidClientIDOrWebRedirectURL) }
        guard let redirectURI = value("redirect_uri"), client.redirectURIs.contains(redirectURI) else {
            return .failure(.invalidWebRedirectURL)
        }
        guard let responseType = Self.parseResponseType(value("response_type")) else {
            return .failure(.invalidResponseType)
        }
        let scopes: [Scope]
        switch Self.parseScopes(value("scope") ?? "") {
        case .success(let parsed): scopes = parsed
        case .failure(let error): return .failure(error)
        }

        let responseMode: AuthorizationRequest.ResponseMode
        if let raw = value("response_mode") {
            guard let mode = AuthorizationRequest.ResponseMode(rawValue: raw) else {
                return .failure(.invalidResponseMode)
            }
            responseMode = mode
        } else {
            switch scenario.settings.defaultResponseMode {
            case .byResponseType: responseMode = responseType.includesIDToken ? .fragment : .query
            case .query: responseMode = .query
            }
        }
        // Rule 2: an id_token never travels in a query string.
        if responseType.includesIDToken && responseMode == .query { return .failure(.invalidResponseMode) }
        // Rule 1: user data (name, email) is only ever posted (a form, or the JS popup's web message).
        if scopes.contains(where: \.requiresFormPost) && !responseMode.postsResponse {
            return .failure(.responseModeMustBeFormPost)
        }
        return .success(
            AuthorizationRequest(
                clientID: clientID, redirectURI: redirectURI, responseType: responseType, scopes: scopes,
                responseMode: responseMode, state: value("state"), nonce: value("nonce")))
    }

    /// `code` or `code id_token` in either order, separated by single or repeated spaces.
    static func parseResponseType(_ raw: String?) -> AuthorizationRequest.ResponseType? {
        guard let raw else { return nil }
        let parts = raw.split(separator: " ").map(String.init)
        switch Set(parts) {
        case ["code"] where parts.count == 1: return .code
        case ["code", "id_token"] where parts.count == 2: return .codeIDToken
        default: return nil
        }
    }

    /// A space-separated subset of `name email openid`; empty is allowed.
    static func parseScopes(_ raw: String) -> Result<[Scope], AppleError> {
        var scopes: [Scope] = []
        for part in raw.split(separator: " ") {
            guard let scope = Scope(rawValue: String(part)) else {
                return .failure(.invalidScope("Invalid scope: \(part)"))
            }
            if !scopes.contains(scope) { scopes.append(scope) }
        }
        return .success(scopes)
    }
}

extension AuthorizationRequestValidator {
    /// The journal's and log's reason for a refusal whose answer alone does not say what to fix (nil: the
    /// answer's text is the reason). An unregistered redirect_uri names the client's registered URIs and the
    /// nearest one: Apple's "Invalid web redirect url." says neither.
    package func reason(for error: AppleError, _ parameters: [(name: String, value: String)]) -> String? {
        guard error == .invalidWebRedirectURL else { return nil }
        let clientID = parameters.first { $0.name == "client_id" }?.value ?? ""
        let registered = scenario.client(id: clientID)?.redirectURIs ?? []
        guard let presented = parameters.first(where: { $0.name == "redirect_uri" })?.value else {
            return "no redirect_uri; \(clientID) has \(Self.list(registered))"
        }
        var reason = "redirect_uri '\(presented)' is not registered for \(clientID), which has \(Self.list(registered))"
        if let nearest = EditDistance.suggestion(for: presented, among: registered) {
            reason += " (did you mean '\(nearest)'?)"
        }
        return reason + "; add it with POST /mock/clients/\(clientID)/redirect-uris"
    }

    private static func list(_ uris: [String]) -> String {
        switch uris.count {
        case 0: "no registered redirect URIs"
        case 1...5: "registered " + uris.map { "'\($0)'" }.joined(separator: ", ")
        default:
            "registered " + uris.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + " and \(uris.count - 5) more"
        }
    }
}
