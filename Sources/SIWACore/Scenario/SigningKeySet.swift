/// The RS256 keys behind `/auth/keys` and id_token signatures.
///
/// Rotation is modelled by flags: a key can be published but not sign (the old key), or sign
/// without being published yet (to test JWKS cache refresh in backends).
public struct SigningKeySet: Sendable, Equatable {
    public var keys: [SigningKey]

    public init(keys: [SigningKey] = []) {
        self.keys = keys
    }

    /// The key that signs id_tokens (the first with `signs`).
    public var signingKey: SigningKey? { keys.first { $0.signs } }
    public var publishedKeys: [SigningKey] { keys.filter(\.published) }
}

/// One RSA signing key: its `kid`, the private key PEM and its role.
public struct SigningKey: Sendable, Equatable {
    public var kid: String
    /// PKCS#8 (`PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`) PEM.
    public var privateKeyPEM: String
    /// Listed at `/auth/keys`.
    public var published: Bool
    /// Used to sign id_tokens.
    public var signs: Bool

    public init(kid: String, privateKeyPEM: String, published: Bool = true, signs: Bool = false) {
        self.kid = kid
        self.privateKeyPEM = privateKeyPEM
        self.published = published
        self.signs = signs
    }
}
