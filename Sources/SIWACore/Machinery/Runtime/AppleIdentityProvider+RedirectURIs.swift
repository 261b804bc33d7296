import ScenarioModel

extension AppleIdentityProvider {
    /// The most redirect URIs one client may hold once added at run time (each request is checked against
    /// the list; a test suite that adds one per test must not grow it without bound).
    package static let maximumRedirectURIs = 100

    /// Registers `uri` as a redirect URI of the Services ID `clientID` (`POST /mock/clients/{id}/redirect-uris`):
    /// a backend on a free port adds its callback without restating the scenario's teams and keys. Adding
    /// one already registered changes nothing. Returns the client's redirect URIs.
    /// - Throws: `.notFound` for an unknown client, `.conflict` for a native App ID (no web flow) or a full
    ///   list, `.invalid` for a URI that is not absolute http(s) or is longer than `/auth/authorize` accepts.
    package func addRedirectURI(_ uri: String, toClient clientID: String) throws(ProviderChangeError) -> [String] {
        let limit = ParameterLimits.maximumBytes(for: "redirect_uri")
        guard uri.utf8.count <= limit else {
            throw ProviderChangeError(.invalid, field: "redirect_uri", "longer than \(limit) bytes")
        }
        guard Scenario.isAbsoluteHTTPURL(uri) else {
            throw ProviderChangeError(.invalid, field: "redirect_uri", "'\(uri)' is not an absolute http(s) URL")
        }
        return try change { (scenario, _) throws(ProviderChangeError) in
            guard let index = scenario.clients.firstIndex(where: { $0.id == clientID }) else {
                throw .unknownClient(clientID, among: scenario.clients.map(\.id))
            }
            guard scenario.clients[index].kind == .services else {
                throw ProviderChangeError(
                    .conflict, field: "client_id",
                    "'\(clientID)' is a native App ID; only Services IDs have redirect URIs")
            }
            if scenario.clients[index].redirectURIs.contains(uri) { return scenario.clients[index].redirectURIs }
            guard scenario.clients[index].redirectURIs.count < Self.maximumRedirectURIs else {
                throw ProviderChangeError(
                    .conflict, field: "redirect_uri",
                    "'\(clientID)' already has \(Self.maximumRedirectURIs) redirect URIs (POST /mock/reset returns to the scenario's)"
                )
            }
            scenario.clients[index].redirectURIs.append(uri)
            return scenario.clients[index].redirectURIs
        }
    }
}
