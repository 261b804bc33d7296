import SIWACore
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
