import JOSE
import ScenarioModel

/// Runtime changes of the id_token signing keys behind `/auth/keys`. Each change re-parses the key
/// set and recomputes the JWKS bytes in the same swap, so `/auth/keys` and signatures always agree.
extension AppleIdentityProvider {
    /// From now on, `rotateSigningKey` takes pre-generated keys from `supply` instead of generating one
    /// on the calling thread (a server's event loop), and is refused while none is ready.
    package func takeSigningKeys(from supply: SigningKeySupply) {
        keySupply.withLock { $0 = supply }
    }

    /// A new RSA-2048 key (kid in Apple's 10-character shape) that signs from now on; the previous
    /// signer stays published so tokens it signed still verify. Returns the new kid.
    /// - Parameter offLoop: the caller is not an event loop (the pipeline runs `POST /mock/keys/rotate` on
    ///   a background thread), so with no pre-generated key ready one is made here.
    /// - Throws: `.unavailable` when a key supply is set, has no key ready, and the caller may not wait
    ///   for one (an event loop: the pipeline's background threads could not be started).
    @discardableResult
    package func rotateSigningKey(kid requested: String? = nil, offLoop: Bool = false) throws(ProviderChangeError)
        -> String
    {
        let kid = requested ?? identifiers.makeKeyID()
        // Checked before a pre-generated key is taken, so a refused rotation wastes none.
        try Self.checkRoomForAnotherKey(scenario)
        let pem: String
        if let supply = keySupply.withLock({ $0 }) {
            guard let ready = supply.take(makingOneIfNoneReady: offLoop) else {
                throw ProviderChangeError(
                    .unavailable, field: "kid",
                    offLoop
                        ? "RSA key generation failed (OpenSSL); see the log"
                        : "no pre-generated signing key is ready and no background thread could be started to "
                            + "make one (see the log)")
            }
            pem = ready
        } else {
            do {
                pem = try RSAPrivateKey.generate(bits: 2048).pemPKCS8()
            } catch {
                throw ProviderChangeError(.invalid, field: "kid", "key generation failed: \(error.message)")
            }
        }
        return try addSigningKey(SigningKey(kid: kid, privateKeyPEM: pem, published: true, signs: true))
    }

    /// Adds a key; when it `signs`, it replaces the current signer (which stays published).
    @discardableResult
    package func addSigningKey(_ key: SigningKey) throws(ProviderChangeError) -> String {
        try change(rebuildKeys: true) { (scenario, _) throws(ProviderChangeError) -> String in
            if key.kid.isEmpty { throw ProviderChangeError(.invalid, field: "kid", "must not be empty") }
            if scenario.signingKeys.keys.contains(where: { $0.kid == key.kid }) {
                throw ProviderChangeError(.conflict, field: "kid", "a key with kid '\(key.kid)' already exists")
            }
            try Self.checkRoomForAnotherKey(scenario)
            if key.signs {
                for index in scenario.signingKeys.keys.indices { scenario.signingKeys.keys[index].signs = false }
            }
            scenario.signingKeys.keys.append(key)
            return key.kid
        }
    }

    /// The most signing keys runtime additions may leave in a scenario. Added keys are never dropped
    /// (retired ones stay so a later `publish` works), and every key change re-parses them all, so
    /// without a cap a rotation loop grows memory, `/auth/keys` and the cost of each change without
    /// bound (docs/limits.md). Apple's own JWKS holds a few keys at a time.
    package static let maximumSigningKeys = 32

    /// `.conflict` when `scenario` already holds `maximumSigningKeys` keys.
    static func checkRoomForAnotherKey(_ scenario: Scenario) throws(ProviderChangeError) {
        guard scenario.signingKeys.keys.count >= maximumSigningKeys else { return }
        throw ProviderChangeError(
            .conflict, field: "kid",
            "at most \(maximumSigningKeys) signing keys; POST /mock/reset returns to the scenario's own keys")
    }

    /// Lists the key at `/auth/keys`.
    package func publishKey(kid: String) throws(ProviderChangeError) {
        try changeKey(kid) { key throws(ProviderChangeError) in key.published = true }
    }

    /// Removes the key from `/auth/keys` (tokens it signed stop verifying). The signing key cannot be
    /// retired: sign with another one first.
    package func retireKey(kid: String) throws(ProviderChangeError) {
        try changeKey(kid) { key throws(ProviderChangeError) in
            if key.signs {
                throw ProviderChangeError(
                    .conflict, field: "kid", "'\(kid)' signs id_tokens; make another key sign first")
            }
            key.published = false
        }
    }

    /// Makes an existing key sign id_tokens (it is published too, as Apple would).
    package func signWithKey(kid: String) throws(ProviderChangeError) {
        try change(rebuildKeys: true) { (scenario, _) throws(ProviderChangeError) in
            guard scenario.signingKeys.keys.contains(where: { $0.kid == kid }) else {
                throw ProviderChangeError(.notFound, field: "kid", "unknown key '\(kid)'")
            }
            for index in scenario.signingKeys.keys.indices {
                let isTarget = scenario.signingKeys.keys[index].kid == kid
                scenario.signingKeys.keys[index].signs = isTarget
                if isTarget { scenario.signingKeys.keys[index].published = true }
            }
        }
    }

    private func changeKey(_ kid: String, _ edit: (inout SigningKey) throws(ProviderChangeError) -> Void)
        throws(ProviderChangeError)
    {
        try change(rebuildKeys: true) { (scenario, _) throws(ProviderChangeError) in
            guard let index = scenario.signingKeys.keys.firstIndex(where: { $0.kid == kid }) else {
                throw ProviderChangeError(.notFound, field: "kid", "unknown key '\(kid)'")
            }
            try edit(&scenario.signingKeys.keys[index])
        }
    }
}
