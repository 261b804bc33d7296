import JOSE
import Locking

/// A scenario's key material parsed once: the id_token signer, the serialized JWKS and each team's
/// client-secret public keys. Rebuild it when the key set changes (rotation), never per request.
///
/// When every key is one of the built-in scenario's embedded keys (the default scenario, and any scenario
/// that reuses them byte for byte), the JWKS is built from the moduli read in Swift
/// (``RSAPublicComponents``) and OpenSSL parses the keys on their first use (a signature, a client-secret
/// check) or when ``parseNow()`` is called: those keys are known to parse (`DefaultScenarioTests`), so the
/// deferral cannot change which scenarios are rejected, and the start-up skips the four OpenSSL decodes
/// (bench/RESULTS.md, issue #26). Any other key is parsed here, and a bad one is reported here.
package struct ScenarioKeys: Sendable {
    /// The key id and private key that sign id_tokens.
    package let signingKID: String
    /// `{"keys":[…]}` of the published keys, serialized once in Apple's layout: two-space indent, no final
    /// newline (the 2020 wire log's `Content-Length: 966` is exactly that layout; docs/fidelity.md).
    package let jwksBytes: [UInt8]
    private let material: KeyMaterial

    /// The private key that signs id_tokens.
    package var signingKey: RSAPrivateKey { material.parsed.signingKey }
    /// Public keys by kid, for every key in the set (published or not).
    package var publicKeys: [String: RSAPublicKey] { material.parsed.publicKeys }
    /// Client-secret verification keys: team id → kid → key.
    package var teamKeys: [String: [String: P256PublicKey]] { material.parsed.teamKeys }
    /// Whether OpenSSL has parsed the keys yet (false only for deferred built-in keys before first use).
    package var isParsed: Bool { material.isParsed }

    /// Parses every PEM in the scenario (or, for built-in keys only, reads the moduli and defers the parse).
    ///
    /// - Throws: `ScenarioKeyError` naming the first key that could not be loaded.
    package init(loading scenario: Scenario) throws(ScenarioKeyError) {
        guard let signing = scenario.signingKeys.signingKey else {
            throw ScenarioKeyError(path: "signing_keys", message: "no key has signs: true")
        }
        let source = KeySource(scenario)
        self.signingKID = signing.kid
        if let jwks = Self.builtInJWKS(scenario) {
            self.jwksBytes = jwks
            self.material = KeyMaterial(deferring: source)
        } else {
            let parsed = try ParsedKeys(source)
            self.jwksBytes = JWKS(
                keys: scenario.signingKeys.publishedKeys.compactMap { parsed.publicKeys[$0.kid]?.jwk(kid: $0.kid) }
            )
            .prettySerialized()
            self.material = KeyMaterial(parsed: parsed)
        }
    }

    /// Parses deferred keys now (the server calls it off the request path after its ready line, so the
    /// first signature does not pay for it). Does nothing when the keys are parsed.
    package func parseNow() { _ = material.parsed }

    /// The embedded keys as the loader stores them (`pem_file:` text trimmed).
    private static let builtInSigningPEMs = [
        Scenario.BuiltInKeys.signingKeyAj3F8kLq2X, Scenario.BuiltInKeys.signingKeyPb7Yt1ZcQ9,
        Scenario.BuiltInKeys.signingKeyTq8Nv3WcLm,
    ]
    .map(ScenarioLoader.trimmed)
    private static let builtInTeamPEM = ScenarioLoader.trimmed(Scenario.BuiltInKeys.clientSecretPublicKeyKEY1234567)

    /// The JWKS of `scenario` from the moduli, when every key is an embedded built-in key; nil otherwise.
    private static func builtInJWKS(_ scenario: Scenario) -> [UInt8]? {
        guard scenario.signingKeys.keys.allSatisfy({ builtInSigningPEMs.contains($0.privateKeyPEM) }),
            scenario.teams.allSatisfy({ $0.clientSecretKeys.allSatisfy { $0.publicKeyPEM == builtInTeamPEM } })
        else { return nil }
        var keys: [JWK] = []
        for key in scenario.signingKeys.publishedKeys {
            guard let (n, e) = RSAPublicComponents.read(privateKeyPEM: key.privateKeyPEM) else { return nil }
            keys.append(JWK(kid: key.kid, n: Base64URL.encode(n), e: Base64URL.encode(e)))
        }
        return JWKS(keys: keys).prettySerialized()
    }
}

/// The PEMs a `ScenarioKeys` parses, without the rest of the scenario (its users stay out of the keys).
private struct KeySource: Sendable {
    var signingKID: String
    var signing: [(kid: String, pem: String)]
    var teams: [(id: String, keys: [(kid: String, pem: String)])]

    init(_ scenario: Scenario) {
        signingKID = scenario.signingKeys.signingKey?.kid ?? ""
        signing = scenario.signingKeys.keys.map { ($0.kid, $0.privateKeyPEM) }
        teams = scenario.teams.map { team in (team.id, team.clientSecretKeys.map { ($0.kid, $0.publicKeyPEM) }) }
    }
}

/// The OpenSSL keys of a `KeySource`.
private struct ParsedKeys: Sendable {
    var signingKey: RSAPrivateKey
    var publicKeys: [String: RSAPublicKey]
    var teamKeys: [String: [String: P256PublicKey]]

    init(_ source: KeySource) throws(ScenarioKeyError) {
        var privateKeys: [String: RSAPrivateKey] = [:]
        var publicKeys: [String: RSAPublicKey] = [:]
        for (index, key) in source.signing.enumerated() {
            do {
                let privateKey = try RSAPrivateKey(pem: key.pem)
                privateKeys[key.kid] = privateKey
                publicKeys[key.kid] = privateKey.publicKey
            } catch {
                throw ScenarioKeyError(path: "signing_keys[\(index)]", message: "key '\(key.kid)': \(error.message)")
            }
        }
        var teamKeys: [String: [String: P256PublicKey]] = [:]
        for (teamIndex, team) in source.teams.enumerated() {
            var keys: [String: P256PublicKey] = [:]
            for (keyIndex, key) in team.keys.enumerated() {
                do {
                    keys[key.kid] = try P256PublicKey(pem: key.pem)
                } catch {
                    throw ScenarioKeyError(
                        path: "teams[\(teamIndex)].keys[\(keyIndex)]", message: "key '\(key.kid)': \(error.message)")
                }
            }
            teamKeys[team.id] = keys
        }
        self.signingKey = privateKeys[source.signingKID]!
        self.publicKeys = publicKeys
        self.teamKeys = teamKeys
    }
}

/// Parsed keys, or the built-in PEMs to parse on first use (under a lock: one parse, shared by the
/// snapshots and threads that hold this `ScenarioKeys`).
private final class KeyMaterial: Sendable {
    private let state: Lock<(source: KeySource?, parsed: ParsedKeys?)>

    init(parsed: ParsedKeys) { state = Lock((nil, parsed)) }
    init(deferring source: KeySource) { state = Lock((source, nil)) }

    var isParsed: Bool { state.withLock { $0.parsed != nil } }

    var parsed: ParsedKeys {
        state.withLock { state in
            if let parsed = state.parsed { return parsed }
            // Only the embedded built-in keys are deferred, and DefaultScenarioTests parses each of them.
            let parsed = try! ParsedKeys(state.source!)
            state = (nil, parsed)
            return parsed
        }
    }
}

/// A key in the scenario that could not be parsed.
package struct ScenarioKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var message: String

    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    package var description: String { "\(path): \(message)" }
}
