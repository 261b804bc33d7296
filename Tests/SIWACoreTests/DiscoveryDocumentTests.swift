import JSON
import SIWACore
import ScenarioModel
import Testing

@Suite struct DiscoveryDocumentTests {
    @Test func goldenDocument() {
        let bytes = DiscoveryDocument.serialized(
            publicURL: "http://127.0.0.1:8080/", issuer: "https://appleid.apple.com")
        let golden = """
            {"issuer":"https://appleid.apple.com","authorization_endpoint":"http://127.0.0.1:8080/auth/authorize",\
            "token_endpoint":"http://127.0.0.1:8080/auth/token","revocation_endpoint":"http://127.0.0.1:8080/auth/revoke",\
            "jwks_uri":"http://127.0.0.1:8080/auth/keys","response_types_supported":["code"],\
            "response_modes_supported":["query","fragment","form_post"],"subject_types_supported":["pairwise"],\
            "id_token_signing_alg_values_supported":["RS256"],"scopes_supported":["openid","email","name"],\
            "token_endpoint_auth_methods_supported":["client_secret_post"],\
            "claims_supported":["aud","email","email_verified","exp","iat","is_private_email","iss","nonce",\
            "nonce_supported","real_user_status","sub","transfer_sub"]}
            """
        #expect(String(decoding: bytes, as: UTF8.self) == golden)
    }
}

/// The provider serves the discovery document of its current scenario: a scenario that changes
/// `issuer` (`PUT /mock/scenario`, a reload) changes the document's `issuer` too.
@Suite struct ProviderDiscoveryTests {
    func issuer(in bytes: [UInt8]) -> String? {
        try? JSONValue.parse(bytes)["issuer"]?.stringValue
    }

    @Test func theIssuerFollowsAReplacedScenario() throws {
        let provider = try AppleIdentityProvider(scenario: .builtIn, clock: ManualClock(milliseconds: 0))
        let url = "http://127.0.0.1:8080"
        #expect(issuer(in: provider.discoveryBytes(publicURL: url)) == "https://appleid.apple.com")
        var changed = Scenario.builtIn
        changed.settings.issuer = "https://issuer.example"
        try provider.replaceScenario(changed)
        #expect(issuer(in: provider.discoveryBytes(publicURL: url)) == "https://issuer.example")
        let document = try JSONValue.parse(provider.discoveryBytes(publicURL: url))
        #expect(document["jwks_uri"]?.stringValue == "http://127.0.0.1:8080/auth/keys")
        #expect(
            provider.discoveryBytes(publicURL: url)
                == DiscoveryDocument.serialized(publicURL: url, issuer: "https://issuer.example"))
    }
}
