import JOSE

/// Apple's server rules joined up: the scenario, its parsed keys, the clock, the state store, the
/// client-secret validator and the id_token maker. Endpoint logic lives in extensions
/// (`+Token`, `+Revoke`, `+Authorize`); the HTTP layer only decodes requests and renders results.
///
/// Thread-safe: every stored property is immutable or owns its own lock.
public final class AppleIdentityProvider: Sendable {
    public let scenario: Scenario
    public let keys: ScenarioKeys
    public let clock: any SIWAClock
    public let identifiers: IdentifierGenerator
    public let store: IdentityStore
    public let clientSecrets: ClientSecretValidator
    public let idTokens: IDTokenMaker
    public let authorizationRequests: AuthorizationRequestValidator

    /// - Parameters:
    ///   - random: defaults to a seeded source when the scenario has `seed:`, else the OS generator.
    /// - Throws: `ScenarioKeyError` when a PEM in the scenario cannot be parsed.
    public init(
        scenario: Scenario, clock: any SIWAClock, random: (any RandomSource)? = nil,
        limits: IdentityStore.Limits = IdentityStore.Limits()
    ) throws(ScenarioKeyError) {
        let keys = try ScenarioKeys(loading: scenario)
        let source: any RandomSource = random ?? scenario.seed.map { SeededRandomSource(seed: $0) } ?? SystemRandomSource()
        self.scenario = scenario
        self.keys = keys
        self.clock = clock
        self.identifiers = IdentifierGenerator(random: source)
        self.store = IdentityStore(settings: scenario.settings, identifiers: identifiers, limits: limits)
        self.clientSecrets = ClientSecretValidator(scenario: scenario, keys: keys, clock: clock)
        self.idTokens = IDTokenMaker(settings: scenario.settings, keys: keys)
        self.authorizationRequests = AuthorizationRequestValidator(scenario: scenario)
    }

    /// Serialized `/auth/keys` body (published keys), computed once.
    public var jwksBytes: [UInt8] { keys.jwksBytes }

    /// Teams with no registered client-secret keys: their secrets' claims are checked but signatures
    /// are not. The server logs this once at startup.
    public var teamsWithoutKeys: [String] {
        scenario.teams.filter { $0.clientSecretKeys.isEmpty }.map(\.id)
    }
}

/// An endpoint failure: the wire error plus, for logs and tests, the precise internal reason.
public struct EndpointFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var error: AppleError
    /// E.g. the `ClientSecretFailure` behind an `invalid_client`; never sent to the client.
    public var reason: String?
    /// A fault of the mock itself (e.g. signing failed): the edge answers 500 and logs it.
    public var isInternal: Bool

    public init(_ error: AppleError, reason: String? = nil) {
        self.error = error
        self.reason = reason
        self.isInternal = false
    }

    /// A failure that is the mock's fault, not the client's.
    public static func internalError(_ reason: String) -> EndpointFailure {
        var failure = EndpointFailure(AppleError(.invalidRequest), reason: reason)
        failure.isInternal = true
        return failure
    }

    public var description: String { reason.map { "\(error) (\($0))" } ?? error.description }
}

/// Form fields as decoded pairs, with Apple's "duplicated parameter" rule.
struct FormFields {
    let pairs: [(name: String, value: String)]

    /// Fails `invalid_request` when any field name repeats.
    init(_ pairs: [(name: String, value: String)]) throws(EndpointFailure) {
        var seen = Set<String>()
        for (name, _) in pairs where !seen.insert(name).inserted {
            throw EndpointFailure(.invalidRequest("Duplicate parameter: \(name)"))
        }
        self.pairs = pairs
    }

    subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    /// A present, non-empty field, or `invalid_request` naming it.
    func required(_ name: String) throws(EndpointFailure) -> String {
        guard let value = self[name], !value.isEmpty else {
            throw EndpointFailure(.invalidRequest("Missing required parameter: \(name)"))
        }
        return value
    }
}
