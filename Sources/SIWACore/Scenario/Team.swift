/// A developer team (10-character Team ID) and the Sign in with Apple keys registered for it.
public struct Team: Sendable, Equatable {
    /// The Team ID, e.g. `ABCDE12345`; the client secret's `iss`.
    public var id: String
    /// Public halves of the team's `.p8` keys. When empty, client-secret signatures cannot be checked
    /// (claims still are) and the server logs that once.
    public var clientSecretKeys: [ClientSecretKey]
    /// Registered email sources for the private email relay (`email_sources:`); empty: every
    /// message to the team's relay addresses is refused as an unauthorized sender.
    public var emailSources: [EmailSource]

    public init(id: String, clientSecretKeys: [ClientSecretKey] = [], emailSources: [EmailSource] = []) {
        self.id = id
        self.clientSecretKeys = clientSecretKeys
        self.emailSources = emailSources
    }
}

/// A registered Sign in with Apple key (P-256): its 10-character key id and public key PEM.
public struct ClientSecretKey: Sendable, Equatable {
    public var kid: String
    /// SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`).
    public var publicKeyPEM: String

    public init(kid: String, publicKeyPEM: String) {
        self.kid = kid
        self.publicKeyPEM = publicKeyPEM
    }
}
