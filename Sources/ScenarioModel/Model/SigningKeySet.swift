/// The RS256 keys behind `/auth/keys` and id_token signatures.
///
/// Rotation is modelled by flags: a key can be published but not sign (the old key), or sign
/// without being published yet (to test JWKS cache refresh in backends).
package struct SigningKeySet: Sendable, Equatable {
    package var keys: [SigningKey]

    package init(keys: [SigningKey] = []) {
        self.keys = keys
    }

    /// The key that signs id_tokens (the first with `signs`).
    package var signingKey: SigningKey? { keys.first { $0.signs } }
    package var publishedKeys: [SigningKey] { keys.filter(\.published) }
}

/// One RSA signing key: its `kid`, the private key PEM and its role.
package struct SigningKey: Sendable, Equatable {
    package var kid: String
    /// PKCS#8 (`PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`) PEM.
    package var privateKeyPEM: String
    /// Listed at `/auth/keys`.
    package var published: Bool
    /// Used to sign id_tokens.
    package var signs: Bool

    package init(kid: String, privateKeyPEM: String, published: Bool = true, signs: Bool = false) {
        self.kid = kid
        self.privateKeyPEM = privateKeyPEM
        self.published = published
        self.signs = signs
    }
}
