import HTTP
import JSON
import SIWACore
import ScenarioModel

/// Apple's HTTP surface (`appleid.apple.com`): the handlers and their routes —
/// `GET /.well-known/openid-configuration`, `GET /auth/keys`, `GET|POST /auth/authorize`,
/// `POST /auth/token`, `POST /auth/revoke`, `POST /auth/usermigrationinfo`.
///
/// Rules live in `AppleIdentityProvider` (SIWACore); these handlers read the request context and render
/// answers. `MockServer` puts these routes into the one route table, behind the one pipeline, with the
/// control API's.
package struct AppleEndpoints: Sendable {
    /// How to build the endpoints.
    package struct Configuration: Sendable {
        /// Base URL clients reach the mock at (discovery endpoint URLs), e.g. `http://127.0.0.1:8080`.
        package var publicURL: String
        package var scenario: Scenario
        package var clock: any SIWAClock
        /// Nil: seeded when the scenario has `seed:`, else the OS generator.
        package var random: (any RandomSource)?
        /// Receives one line per notable event (unexpected 500s, unchecked client-secret signatures).
        package var log: @Sendable (String) -> Void
        /// Where consents, codes and tokens live; nil keeps them in memory (docs/scale-out.md).
        package var storeFactory: GrantStoreFactory?

        package init(
            publicURL: String, scenario: Scenario = .builtIn, clock: any SIWAClock = SystemClock(),
            random: (any RandomSource)? = nil, log: @escaping @Sendable (String) -> Void = { _ in },
            storeFactory: GrantStoreFactory? = nil
        ) {
            self.storeFactory = storeFactory
            self.publicURL = publicURL
            self.scenario = scenario
            self.clock = clock
            self.random = random
            self.log = log
        }
    }

    package let provider: AppleIdentityProvider
    package let publicURL: String
    let log: @Sendable (String) -> Void
    /// `GET /auth/keys`' answer, serialized once per key set.
    let keysAnswer = PreparedAnswer { body in
        var response = Responses.json(body)
        Responses.stampApple(&response.headers)
        return response
    }

    /// Parses the scenario's keys (no key generation); the provider precomputes the JWKS body.
    ///
    /// - Throws: `ScenarioKeyError` when a PEM in the scenario cannot be parsed.
    package init(configuration: Configuration) throws(ScenarioKeyError) {
        let provider = try AppleIdentityProvider(
            scenario: configuration.scenario, clock: configuration.clock, random: configuration.random,
            storeFactory: configuration.storeFactory)
        self.init(provider: provider, publicURL: configuration.publicURL, log: configuration.log)
    }

    /// Serves an existing provider (shared with the control API).
    package init(
        provider: AppleIdentityProvider, publicURL: String, log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.provider = provider
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        self.log = log
        for team in provider.teamsWithoutKeys {
            log("team \(team) has no registered client-secret keys: client_secret signatures are not verified")
        }
    }

    /// The body of a form POST, or the Apple error its absence or bad encoding gets.
    func formBody(_ context: RequestContext, notForm: AppleError) -> Result<[(name: String, value: String)], AppleError>
    {
        switch context.form.body {
        case .fields(let fields): .success(fields)
        case .absent, .notForm: .failure(notForm)
        case .invalid: .failure(.invalidRequest("Invalid form encoding"))
        }
    }
}
