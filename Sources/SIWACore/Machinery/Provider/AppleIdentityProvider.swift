import JOSE
import Locking
import ScenarioModel

/// Apple's server rules joined up: the scenario, its parsed keys, the clock, the state store, the
/// client-secret validator and the id_token maker. Endpoint logic lives in extensions
/// (`+Token`, `+Revoke`, `+Authorize`, `+Migration`); runtime changes (control API, timeline) in
/// `Runtime/`. The HTTP layer only decodes requests and renders results.
///
/// Thread-safe: the current `ProviderSnapshot` is owned by one `Lock`; every runtime change builds a
/// complete new snapshot and swaps it in under that lock, so it is applied entirely or not at all.
package final class AppleIdentityProvider: Sendable {
    package let clock: any SIWAClock
    let runtime: Lock<RuntimeState>
    let limits: IdentityStore.Limits
    /// The injected random source, if any (kept so `reset()` can rebuild identifiers the same way).
    let injectedRandom: (any RandomSource)?
    /// `clock.nowMilliseconds` at construction (what `reset()` sets a `ManualClock` back to).
    let initialClockMilliseconds: Int64
    let observers: Lock<[@Sendable (UserEvent) -> Void]>
    /// Where `rotateSigningKey` takes keys from; nil generates on the calling thread (tests, tools).
    let keySupply = Lock<SigningKeySupply?>(nil)
    /// Takes the fleet's user changes now (`followFleetUsers`); nil without a shared store.
    let fleetUsers = Lock<(@Sendable () -> Bool)?>(nil)
    /// Runs a user change this replica decides by itself (a sign-in that re-authorized them, a timeline
    /// entry it fired) on the fleet's latest state and publishes it (`shareOwnUserChanges`); nil without
    /// a shared store.
    let sharesOwnUserChange = Lock<(@Sendable (_ change: () -> String?) -> Void)?>(nil)
    /// Makes the grant store of each new state; nil keeps it in memory (`IdentityStore`).
    let storeFactory: GrantStoreFactory?

    /// Mutable state behind the lock: the snapshot served now and the scenario `reset()` returns to.
    struct RuntimeState: Sendable {
        var snapshot: ProviderSnapshot
        var initialScenario: Scenario
        /// Accounts deleted since the last reset (the reason a later `credentialState` gives).
        var deletions = DeletedAccounts()
    }

    /// - Parameters:
    ///   - random: where codes and tokens get their randomness: the OS generator unless a test injects
    ///     one. Never the scenario's `seed:` (see ``IdentifierGenerator``).
    /// - Throws: `ScenarioKeyError` when a PEM in the scenario cannot be parsed.
    package init(
        scenario: Scenario, clock: any SIWAClock, random: (any RandomSource)? = nil,
        limits: IdentityStore.Limits = IdentityStore.Limits(), storeFactory: GrantStoreFactory? = nil
    ) throws(ScenarioKeyError) {
        self.clock = clock
        self.storeFactory = storeFactory
        self.limits = limits
        self.injectedRandom = random
        self.initialClockMilliseconds = clock.nowMilliseconds
        self.observers = Lock([])
        let snapshot = try Self.makeSnapshot(
            scenario: scenario, clock: clock, random: random, limits: limits, storeFactory: storeFactory,
            clearing: false)
        self.runtime = Lock(RuntimeState(snapshot: snapshot, initialScenario: scenario))
    }

    /// A fresh snapshot with the injected (or system) random source and the store `storeFactory` makes
    /// (`clearing`: emptied, as on reset), or an empty in-memory store.
    static func makeSnapshot(
        scenario: Scenario, clock: any SIWAClock, random: (any RandomSource)?, limits: IdentityStore.Limits,
        storeFactory: GrantStoreFactory?, clearing: Bool
    ) throws(ScenarioKeyError) -> ProviderSnapshot {
        let identifiers = IdentifierGenerator(random: random ?? SystemRandomSource())
        let store: any GrantStore =
            storeFactory?(scenario, identifiers)
            ?? IdentityStore(settings: scenario.settings, identifiers: identifiers, limits: limits)
        // A shared store that cannot be reached here is refused earlier: the executable checks it at start
        // and the control API's reset answers 503 while `unavailableReason` is set (docs/scale-out.md).
        if clearing { try? store.removeAll() }
        try? store.seedReturningUsers(of: scenario, now: clock.nowSeconds)
        return try ProviderSnapshot(scenario: scenario, clock: clock, store: store, identifiers: identifiers)
    }

    /// The current snapshot (one lock acquisition; use it when several values must agree).
    package var snapshot: ProviderSnapshot { runtime.withLock { $0.snapshot } }

    package var scenario: Scenario { snapshot.scenario }
    package var keys: ScenarioKeys { snapshot.keys }
    package var identifiers: IdentifierGenerator { snapshot.identifiers }
    package var store: any GrantStore { snapshot.store }
    package var clientSecrets: ClientSecretValidator { snapshot.clientSecrets }
    package var idTokens: IDTokenMaker { snapshot.idTokens }
    package var authorizationRequests: AuthorizationRequestValidator { snapshot.authorizationRequests }

    /// Serialized `/auth/keys` body (published keys), recomputed only when the key set changes.
    package var jwksBytes: [UInt8] { runtime.withLock { $0.snapshot.keys.jwksBytes } }

    /// Serialized `/.well-known/openid-configuration` for `publicURL`, with the current scenario's `issuer`.
    package func discoveryBytes(publicURL: String) -> [UInt8] {
        let snapshot = self.snapshot
        return snapshot.discovery.bytes(publicURL: publicURL, issuer: snapshot.scenario.settings.issuer)
    }

    /// Teams with no registered client-secret keys: their secrets' claims are checked but signatures
    /// are not. The server logs this once at startup.
    package var teamsWithoutKeys: [String] {
        scenario.teams.filter { $0.clientSecretKeys.isEmpty }.map(\.id)
    }
}

/// Why an endpoint refused or failed: Apple's wire error with a precise reason for the journal and log
/// (never sent to the client), or a fault of the mock itself (the edge answers a logged 500).
package enum EndpointFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case apple(AppleError, reason: String?)
    case `internal`(String)
    /// The shared state store is unreachable: the edge answers 503 (docs/scale-out.md).
    case unavailable(StoreUnavailable)

    /// Apple's error, with the reason behind it when there is more to say than its description.
    package init(_ error: AppleError, reason: String? = nil) {
        self = .apple(error, reason: reason)
    }

    /// A failure that is the mock's fault, not the client's.
    package static func internalError(_ reason: String) -> EndpointFailure { .internal(reason) }

    /// Runs a store operation; an unreachable shared store becomes `.unavailable` (answered 503).
    static func storing<T>(_ body: () throws(StoreUnavailable) -> T) throws(EndpointFailure) -> T {
        do throws(StoreUnavailable) {
            return try body()
        } catch {
            throw .unavailable(error)
        }
    }

    /// The wire error; nil for the mock's own failures.
    package var error: AppleError? {
        if case .apple(let error, _) = self { error } else { nil }
    }

    /// The reason in words.
    package var reason: String? {
        switch self {
        case .apple(_, let reason): reason
        case .internal(let reason): reason
        case .unavailable(let error): error.reason
        }
    }

    package var description: String {
        switch self {
        case .apple(let error, let reason): reason.map { "\(error) (\($0))" } ?? error.description
        case .internal(let reason): "internal error: \(reason)"
        case .unavailable(let error): error.description
        }
    }
}

/// Form fields as decoded pairs, with Apple's "duplicated parameter" rule.
struct FormFields {
    let pairs: [(name: String, value: String)]

    /// Fails `invalid_request` when any field name repeats or a value is longer than its cap
    /// (`ParameterLimits`).
    init(_ pairs: [(name: String, value: String)]) throws(EndpointFailure) {
        if let repeated = Self.firstRepeatedName(pairs) {
            throw EndpointFailure(.invalidRequest("Duplicate parameter: \(repeated)"))
        }
        if let tooLong = ParameterLimits.check(pairs) { throw EndpointFailure(tooLong) }
        self.pairs = pairs
    }

    /// The first name that an earlier pair already had. A form has a handful of fields: comparing them
    /// pairwise (short strings compare in a word or two) costs less than hashing each into a set.
    static func firstRepeatedName(_ pairs: [(name: String, value: String)]) -> String? {
        if pairs.count <= 16 {
            for index in pairs.indices where pairs[..<index].contains(where: { $0.name == pairs[index].name }) {
                return pairs[index].name
            }
            return nil
        }
        var seen = Set<String>()
        return pairs.first { !seen.insert($0.name).inserted }?.name
    }

    subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    /// A present, non-empty field, or nil.
    func present(_ name: String) -> String? { self[name].flatMap { $0.isEmpty ? nil : $0 } }

    /// A present, non-empty field, or `invalid_request` naming it.
    func required(_ name: String) throws(EndpointFailure) -> String {
        guard let value = present(name) else { throw Self.missing(name) }
        return value
    }

    /// `invalid_request` "Missing required parameter: <name>".
    static func missing(_ name: String) -> EndpointFailure {
        EndpointFailure(.invalidRequest("Missing required parameter: \(name)"))
    }

    /// `client_id` and `client_secret` from the body. Either one missing or empty is `invalid_client` with
    /// no description, Apple's answer to a request without body credentials such as one that sends only
    /// HTTP Basic (omniauth-apple#68, #85, fixed in #91; docs/fidelity.md).
    func bodyCredentials() throws(EndpointFailure) -> (clientID: String, secret: String) {
        guard let clientID = present("client_id") else {
            throw EndpointFailure(.invalidClient, reason: "no client_id in the form body")
        }
        guard let secret = present("client_secret") else {
            throw EndpointFailure(.invalidClient, reason: "no client_secret in the form body")
        }
        return (clientID, secret)
    }
}
