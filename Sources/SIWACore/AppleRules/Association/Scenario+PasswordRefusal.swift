import ScenarioModel

/// Whether an app may use a website's saved password: Apple's Associated Domains rule, applied to the
/// scenario's `domains:` and clients (`ASAuthorizationPasswordProvider`).
extension Scenario {
    /// Whether the app `client` may use passwords saved for `domain`: the domain is one of its
    /// `webcredentials:` associated domains, and the domain's association file lists the app. Nil
    /// when it may; else why not, in words.
    package func passwordRefusal(domain: String, for client: Client) -> String? {
        guard client.webCredentialDomains.contains(domain) else {
            return "\(domain) is not a webcredentials associated domain of \(client.id)"
                + (client.associatedDomains.isEmpty
                    ? " (it declares none)"
                    : " (associated_domains: \(client.associatedDomains.joined(separator: ", ")))")
        }
        guard let site = webDomain(domain) else {
            return "\(domain) serves no apple-app-site-association file (no domains: entry)"
        }
        let report = AppSiteAssociation.check(
            site.association, source: domain + AppSiteAssociation.path, teamIDs: teams.map(\.id),
            bundleIDs: nativeAppsByTeam)
        if report.allows(teamID: client.teamID, bundleID: client.id) { return nil }
        let problems = report.problems.map(\.description)
        return "\(domain)'s association does not list \(client.teamID).\(client.id)"
            + (problems.isEmpty ? "" : ": " + problems.joined(separator: "; "))
    }
}
