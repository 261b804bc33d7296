import HTTPServer
import JSON
import SIWACore

/// Apple's HTTP surface (`appleid.apple.com`) as an `HTTPResponder`:
/// `GET /.well-known/openid-configuration`, `GET /auth/keys`, `GET|POST /auth/authorize`,
/// `POST /auth/token`, `POST /auth/revoke`, `POST /auth/usermigrationinfo`; JSON 404 for unknown paths and 405 for wrong methods.
///
/// Rules live in `AppleIdentityProvider` (SIWACore); this type decodes requests and renders answers.
public struct AppleEndpoints: HTTPResponder {
    /// How to build the endpoints.
    public struct Configuration: Sendable {
        /// Base URL clients reach the mock at (discovery endpoint URLs), e.g. `http://127.0.0.1:8080`.
        public var publicURL: String
        public var scenario: Scenario
        public var clock: any SIWAClock
        /// Nil: seeded when the scenario has `seed:`, else the OS generator.
        public var random: (any RandomSource)?
        /// Receives one line per notable event (unexpected 500s, unchecked client-secret signatures).
        public var log: @Sendable (String) -> Void

        public init(
            publicURL: String, scenario: Scenario = .builtIn, clock: any SIWAClock = SystemClock(),
            random: (any RandomSource)? = nil, log: @escaping @Sendable (String) -> Void = { _ in }
        ) {
            self.publicURL = publicURL
            self.scenario = scenario
            self.clock = clock
            self.random = random
            self.log = log
        }
    }

    public let provider: AppleIdentityProvider
    public let publicURL: String
    let log: @Sendable (String) -> Void

    /// Parses the scenario's keys (no key generation); the provider precomputes the JWKS body.
    ///
    /// - Throws: `ScenarioKeyError` when a PEM in the scenario cannot be parsed.
    public init(configuration: Configuration) throws(ScenarioKeyError) {
        let provider = try AppleIdentityProvider(
            scenario: configuration.scenario, clock: configuration.clock, random: configuration.random)
        self.init(provider: provider, publicURL: configuration.publicURL, log: configuration.log)
    }

    /// Serves an existing provider (shared with the control API).
    public init(
        provider: AppleIdentityProvider, publicURL: String, log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.provider = provider
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        self.log = log
        for team in provider.teamsWithoutKeys {
            log("team \(team) has no registered client-secret keys: client_secret signatures are not verified")
        }
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        switch request.path {
        case "/.well-known/openid-configuration":
            guard request.method == "GET" else { return Responses.methodNotAllowed(allow: "GET") }
            return Responses.json(provider.discoveryBytes(publicURL: publicURL))
        case "/auth/keys":
            guard request.method == "GET" else { return Responses.methodNotAllowed(allow: "GET") }
            // Read per request: key rotation through the control API swaps the bytes atomically.
            return Responses.json(provider.jwksBytes)
        case "/auth/authorize":
            guard request.method == "GET" || request.method == "POST" else {
                return Responses.methodNotAllowed(allow: "GET, POST")
            }
            return authorize(request)
        case "/auth/token":
            guard request.method == "POST" else { return Responses.methodNotAllowed(allow: "POST") }
            return token(request)
        case "/auth/revoke":
            guard request.method == "POST" else { return Responses.methodNotAllowed(allow: "POST") }
            return revoke(request)
        case "/auth/usermigrationinfo":
            guard request.method == "POST" else { return Responses.methodNotAllowed(allow: "POST") }
            return userMigrationInfo(request)
        default:
            return Responses.notFound()
        }
    }

    /// Renders a core failure: Apple's 400 JSON, or a logged 500 when the mock itself failed.
    func render(_ failure: EndpointFailure, on request: HTTPRequest) -> HTTPResponse {
        if failure.isInternal {
            log("500 \(request.method) \(request.path): \(failure.reason ?? "internal error")")
            return Responses.internalError()
        }
        return Responses.error(failure.error)
    }
}
