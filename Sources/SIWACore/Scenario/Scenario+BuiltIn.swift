extension Scenario {
    /// The scenario served by `siwa-mock` with no file: exactly the values in docs/CONTRACTS.md.
    public static let builtIn: Scenario = {
        let teamID = "ABCDE12345"
        return Scenario(
            name: "built-in",
            settings: ScenarioSettings(),
            teams: [
                Team(
                    id: teamID,
                    clientSecretKeys: [
                        ClientSecretKey(kid: "KEY1234567", publicKeyPEM: BuiltInKeys.clientSecretPublicKeyKEY1234567)
                    ]
                )
            ],
            clients: [
                Client(id: "com.example.app", teamID: teamID, kind: .native),
                Client(
                    id: "com.example.web", teamID: teamID, kind: .services,
                    redirectURIs: [
                        "https://app.example.com/auth/apple/callback",
                        "https://localhost:8443/callback",
                        "http://127.0.0.1:8000/callback",
                    ]
                ),
            ],
            appGroups: [
                AppGroup(id: "com.example.app", primaryAppID: "com.example.app", clientIDs: ["com.example.app", "com.example.web"])
            ],
            users: [
                UserProfile(
                    id: "alice", sub: "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111", email: "alice@example.com",
                    name: PersonName(firstName: "Alice", lastName: "Appleseed"), realUserStatus: .likelyReal
                ),
                UserProfile(
                    id: "bob", sub: "001234.1b2c3d4e5f60718293a4b5c6d7e8f90a.2222", email: "bob@example.com",
                    privateEmail: true, relayEmail: "k7x2m9q4ab@privaterelay.appleid.com",
                    name: PersonName(firstName: "Bob", lastName: "Bobson"), realUserStatus: .likelyReal
                ),
                UserProfile(
                    id: "carol", sub: "001234.2c3d4e5f60718293a4b5c6d7e8f90a1b.3333", email: "carol@example.net",
                    name: PersonName(firstName: "Carol", lastName: "Cole"), realUserStatus: .unknown
                ),
            ],
            signingKeys: SigningKeySet(keys: [
                SigningKey(kid: "Aj3F8kLq2X", privateKeyPEM: BuiltInKeys.signingKeyAj3F8kLq2X, published: true, signs: true),
                SigningKey(kid: "Pb7Yt1ZcQ9", privateKeyPEM: BuiltInKeys.signingKeyPb7Yt1ZcQ9, published: true, signs: false),
            ])
        )
    }()
}
