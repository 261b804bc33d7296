import JSON

/// `/.well-known/openid-configuration`: exactly Apple's fields, in the order of Apple's live document as captured
/// in client-library fixtures (docs/fidelity.md),
/// with endpoint URLs under the mock's public URL and `issuer` from the scenario.
package enum DiscoveryDocument {
    /// The document as a JSON value.
    package static func make(publicURL: String, issuer: String) -> JSONValue {
        let base = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
        return .object(
            JSONObject([
                ("issuer", .string(issuer)),
                ("authorization_endpoint", .string(base + "/auth/authorize")),
                ("token_endpoint", .string(base + "/auth/token")),
                ("revocation_endpoint", .string(base + "/auth/revoke")),
                ("jwks_uri", .string(base + "/auth/keys")),
                ("response_types_supported", strings(["code"])),
                ("response_modes_supported", strings(["query", "fragment", "form_post"])),
                ("subject_types_supported", strings(["pairwise"])),
                ("id_token_signing_alg_values_supported", strings(["RS256"])),
                ("scopes_supported", strings(["openid", "email", "name"])),
                ("token_endpoint_auth_methods_supported", strings(["client_secret_post"])),
                (
                    "claims_supported",
                    strings([
                        "aud", "email", "email_verified", "exp", "iat", "is_private_email", "iss", "nonce",
                        "nonce_supported", "real_user_status", "sub", "transfer_sub",
                    ])
                ),
            ]))
    }

    /// Serialized bytes (compute once per public URL / issuer).
    package static func serialized(publicURL: String, issuer: String) -> [UInt8] {
        make(publicURL: publicURL, issuer: issuer).serialized()
    }
}
