import JOSE

/// A scenario's key material parsed once: the id_token signer, the serialized JWKS and each team's
/// client-secret public keys. Rebuild it when the key set changes (rotation), never per request.
package struct ScenarioKeys: Sendable {
    /// The key id and private key that sign id_tokens.
    package let signingKID: String
    package let signingKey: RSAPrivateKey
    /// `{"keys":[…]}` of the published keys, serialized once.
    package let jwksBytes: [UInt8]
    /// Public keys by kid, for every key in the set (published or not).
    package let publicKeys: [String: RSAPublicKey]
    /// Client-secret verification keys: team id → kid → key.
    package let teamKeys: [String: [String: P256PublicKey]]

    /// Parses every PEM in the scenario.
    ///
    /// - Throws: `ScenarioKeyError` naming the first key that could not be loaded.
    package init(loading scenario: Scenario) throws(ScenarioKeyError) {
        guard let signing = scenario.signingKeys.signingKey else {
            throw ScenarioKeyError(path: "signing_keys", message: "no key has signs: true")
        }
        var privateKeys: [String: RSAPrivateKey] = [:]
        var publicKeys: [String: RSAPublicKey] = [:]
        for (index, key) in scenario.signingKeys.keys.enumerated() {
            do {
                let privateKey = try RSAPrivateKey(pem: key.privateKeyPEM)
                privateKeys[key.kid] = privateKey
                publicKeys[key.kid] = privateKey.publicKey
            } catch {
                throw ScenarioKeyError(path: "signing_keys[\(index)]", message: "key '\(key.kid)': \(error.message)")
            }
        }
        var teamKeys: [String: [String: P256PublicKey]] = [:]
        for (teamIndex, team) in scenario.teams.enumerated() {
            var keys: [String: P256PublicKey] = [:]
            for (keyIndex, key) in team.clientSecretKeys.enumerated() {
                do {
                    keys[key.kid] = try P256PublicKey(pem: key.publicKeyPEM)
                } catch {
                    throw ScenarioKeyError(
                        path: "teams[\(teamIndex)].keys[\(keyIndex)]", message: "key '\(key.kid)': \(error.message)")
                }
            }
            teamKeys[team.id] = keys
        }
        self.signingKID = signing.kid
        self.signingKey = privateKeys[signing.kid]!
        self.publicKeys = publicKeys
        self.teamKeys = teamKeys
        self.jwksBytes = JWKS(
            keys: scenario.signingKeys.publishedKeys.compactMap { publicKeys[$0.kid]?.jwk(kid: $0.kid) }
        )
        .serialized()
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
