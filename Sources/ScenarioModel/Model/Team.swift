/// A developer team (10-character Team ID) and the Sign in with Apple keys registered for it.
package struct Team: Sendable, Equatable {
    /// The Team ID, e.g. `ABCDE12345`; the client secret's `iss`.
    package var id: String
    /// Public halves of the team's `.p8` keys. When empty, client-secret signatures cannot be checked
    /// (claims still are) and the server logs that once.
    package var clientSecretKeys: [ClientSecretKey]
    /// Registered email sources for the private email relay (`email_sources:`); empty: every
    /// message to the team's relay addresses is refused as an unauthorized sender.
    package var emailSources: [EmailSource]

    package init(id: String, clientSecretKeys: [ClientSecretKey] = [], emailSources: [EmailSource] = []) {
        self.id = id
        self.clientSecretKeys = clientSecretKeys
        self.emailSources = emailSources
    }
}

/// A registered Sign in with Apple key (P-256): its 10-character key id and public key PEM.
package struct ClientSecretKey: Sendable, Equatable {
    package var kid: String
    /// SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`).
    package var publicKeyPEM: String

    package init(kid: String, publicKeyPEM: String) {
        self.kid = kid
        self.publicKeyPEM = publicKeyPEM
    }
}
