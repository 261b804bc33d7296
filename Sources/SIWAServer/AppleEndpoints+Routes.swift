import HTTP
import SIWACore
import ScenarioModel

extension AppleEndpoints {
    /// One of Apple's routes as declared: method, path, the form or query fields its handler reads, its
    /// facts, and the handler. The route table (`routes`) and what fault rules and timeline triggers may
    /// point at (`ruleTargets`, checked by `siwa-mock check`) both come from this one list.
    struct RouteDeclaration: Sendable {
        let method: HTTPMethod
        let path: String
        let reads: [String]
        /// Apple's surface, public; the discovery document and the keys are answered from memory.
        var facts = RouteFacts.apple
        let handler: @Sendable (AppleEndpoints, inout RequestContext) -> HTTPResponse
    }

    static let clientCredentials = ["client_id", "client_secret"]

    /// Apple's routes, declared once (https://developer.apple.com/documentation/signinwithapplerestapi).
    static let declarations: [RouteDeclaration] = {
        let authorizeFields = [
            "client_id", "redirect_uri", "response_type", "response_mode", "scope", "state", "nonce", "login_hint",
            "cancel", "account", "consent", "first_name", "last_name", "email_choice",
        ]
        return [
            // Per request from the provider's snapshot: a replaced scenario may change `issuer`.
            RouteDeclaration(
                method: .get, path: "/.well-known/openid-configuration", reads: [], facts: .apple.fromMemory
            ) { endpoints, _ in
                Responses.json(endpoints.provider.discoveryBytes(publicURL: endpoints.publicURL))
            },
            // Read per request: key rotation through the control API swaps the bytes atomically.
            RouteDeclaration(method: .get, path: "/auth/keys", reads: [], facts: .apple.fromMemory) { endpoints, _ in
                endpoints.keysAnswer.response(for: endpoints.provider.jwksBytes)
            },
            RouteDeclaration(method: .get, path: "/auth/authorize", reads: authorizeFields) { $0.authorize(&$1) },
            RouteDeclaration(method: .post, path: "/auth/authorize", reads: authorizeFields) { $0.authorize(&$1) },
            RouteDeclaration(
                method: .post, path: "/auth/token",
                reads: clientCredentials + ["grant_type", "code", "redirect_uri", "refresh_token", "scope"]
            ) { $0.token(&$1) },
            RouteDeclaration(
                method: .post, path: "/auth/revoke", reads: clientCredentials + ["token", "token_type_hint"]
            ) { $0.revoke(&$1) },
            RouteDeclaration(
                method: .post, path: "/auth/usermigrationinfo",
                reads: clientCredentials + ["sub", "target", "transfer_sub"]
            ) { $0.userMigrationInfo(&$1) },
        ]
    }()

    /// Apple's routes for the route table, and Sign in with Apple JS (`BrowserEndpoints`), which no fault
    /// rule targets. Every answer of Apple's routes carries `Server: Apple`, as Apple's do (the token
    /// endpoint's logged responses in aspnet-contrib/AspNet.Security.OAuth.Providers#353 and #390, the
    /// `/auth/keys` wire log in docs/fidelity.md).
    package var routes: [Route] {
        Self.declarations.map { declaration in
            Route(declaration.method, declaration.path, declaration.facts) {
                let response = declaration.handler(self, &$0)
                // A prepared answer (`PreparedAnswer`) is complete, `Server` included.
                if response.isPrepared { return response }
                var stamped = response
                Responses.stampApple(&stamped.headers)
                return stamped
            }
        } + BrowserEndpoints.routes
    }

    /// What fault rules and timeline triggers may match: each path with its methods and the fields its
    /// handlers read. Give it to `ScenarioLoader.ruleTargets`.
    package static let ruleTargets: [AppleRoute] = declarations.reduce(into: []) { targets, declaration in
        if let index = targets.firstIndex(where: { $0.path == declaration.path }) {
            targets[index].methods.append(declaration.method.rawValue)
            targets[index].fields += declaration.reads.filter { !targets[index].fields.contains($0) }
        } else {
            targets.append(
                AppleRoute(path: declaration.path, methods: [declaration.method.rawValue], fields: declaration.reads))
        }
    }
}
