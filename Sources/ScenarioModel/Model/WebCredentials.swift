/// A password the user saved in iCloud Keychain for a website (`users[].keychain` in a scenario),
/// offered to apps associated with that domain (`ASPasswordCredential`,
/// https://developer.apple.com/documentation/authenticationservices/aspasswordcredential).
package struct SavedPassword: Sendable, Equatable {
    /// The website's domain, e.g. `example.com`.
    package var domain: String
    package var user: String
    package var password: String

    package init(domain: String, user: String, password: String) {
        self.domain = domain
        self.user = user
        self.password = password
    }
}

/// A website the scenario knows: its domain and the `apple-app-site-association` file it serves
/// (`domains:` in a scenario), which decides which apps may use the passwords saved for it.
package struct WebDomain: Sendable, Equatable {
    package var domain: String
    /// The file's bytes, as the domain serves them (JSON).
    package var association: [UInt8]

    package init(domain: String, association: [UInt8]) {
        self.domain = domain
        self.association = association
    }
}

extension Client {
    /// The `webcredentials:` domains of the app's Associated Domains entitlement
    /// (https://developer.apple.com/documentation/xcode/supporting-associated-domains).
    package var webCredentialDomains: [String] {
        associatedDomains.compactMap { entry in
            entry.hasPrefix("webcredentials:") ? String(entry.dropFirst("webcredentials:".count)) : nil
        }
    }

    /// Associated Domains services Apple defines.
    package static let associatedDomainServices = ["webcredentials", "applinks", "activitycontinuation", "appclips"]
}

extension Scenario {
    package func webDomain(_ domain: String) -> WebDomain? { webDomains.first { $0.domain == domain } }

    /// Bundle IDs of the native apps (App IDs), by Team ID: what an association file may list.
    package var nativeAppsByTeam: [String: [String]] {
        var apps: [String: [String]] = [:]
        for client in clients where client.kind == .native { apps[client.teamID, default: []].append(client.id) }
        return apps
    }
}
