/// Behaviour switches, each defaulting to what Apple does today (evidence: docs/fidelity.md).
package struct ScenarioSettings: Sendable, Equatable {
    /// `iss` of id_tokens and the discovery document.
    package var issuer: String = "https://appleid.apple.com"
    /// `exp - iat` of id_tokens (86400 s observed since 2023).
    package var idTokenLifetimeSeconds: Int64 = 86400
    /// How `email_verified` / `is_private_email` are written (booleans since Feb 2024).
    package var booleanStyle: BooleanStyle = .bool
    /// Whether `is_private_email: false` is written; Apple usually omits the claim when false.
    package var includeFalsePrivateEmail: Bool = false
    /// Authorization codes are valid for 5 minutes.
    package var codeLifetimeSeconds: Int64 = 300
    /// `expires_in` of access tokens.
    package var accessTokenLifetimeSeconds: Int64 = 3600
    /// A client secret's `exp` may be at most this far after the server's now (about 6 months).
    package var clientSecretMaxLifetimeSeconds: Int64 = 15_777_000
    /// Tolerance for a client secret's `iat` lying in the future (clock drift between machines).
    package var clientSecretClockSkewSeconds: Int64 = 60
    /// The response mode used when `/auth/authorize` gets none.
    package var defaultResponseMode: DefaultResponseMode = .byResponseType
    /// How `/auth/token` and `/auth/revoke` accept client credentials. Apple advertises only
    /// `client_secret_post` and answers a Basic-only request `invalid_client` (docs/fidelity.md).
    package var clientAuthentication: ClientAuthentication = .post
    /// What a body that is not form-urlencoded (e.g. JSON) gets at `/auth/token` and `/auth/revoke`.
    package var nonFormBody: NonFormBody = .invalidClient
    /// Whether refresh-grant responses carry an id_token (Apple's docs show one; docs/fidelity.md).
    package var refreshIDToken: Bool = true
    /// Whether refresh-grant id_tokens carry `auth_time` (the one captured refresh id_token has none).
    package var refreshIDTokenAuthTime: Bool = false
    /// Server-to-server notification switches (docs/fidelity.md).
    package var notifications = NotificationSettings()
    /// What the `response_mode=web_message` page posts (docs/fidelity.md, "web_message": the evidence is thin).
    package var webMessageShape: WebMessageShape = .envelope

    package init() {}

    /// `email_verified` and `is_private_email` as JSON booleans or as the strings `"true"`/`"false"`.
    package enum BooleanStyle: String, Sendable, Equatable {
        case bool
        case string
    }

    /// The message a `web_message` result page posts to `window.opener`.
    package enum WebMessageShape: String, Sendable, Equatable {
        /// `{"method":"oauthDone","data":{…}}` serialized as JSON text, as Apple's popup is reported to post.
        case envelope
        /// The `SignInResponseI` / `SignInErrorI` object itself (structured clone, no envelope).
        case response
    }

    /// What `/auth/authorize` does without `response_mode` ([3p]: not documented by Apple).
    package enum DefaultResponseMode: String, Sendable, Equatable {
        /// `query` for `code`, `fragment` for `code id_token` (forum 660531).
        case byResponseType = "by_response_type"
        /// Always `query` (then `code id_token` without a mode is rejected by rule 2).
        case query
    }

    /// The answer to a non-form body (docs/fidelity.md, "Request bodies").
    package enum NonFormBody: String, Sendable, Equatable {
        /// Read as a request without body credentials: `invalid_client` (apple-signin-auth#28).
        case invalidClient = "invalid_client"
        /// The mock's earlier answer: `unsupported_grant_type` at `/auth/token` (no readable grant_type)
        /// and `invalid_request` "Invalid content type" at `/auth/revoke` (TN3107).
        case unsupportedGrantType = "unsupported_grant_type"
    }

    /// Which client-authentication methods the token and revoke endpoints take.
    package enum ClientAuthentication: String, Sendable, Equatable {
        /// `client_id` and `client_secret` in the form body only (what discovery advertises); an
        /// `Authorization: Basic` header is ignored, so a Basic-only request is `invalid_client`.
        case post
        /// Also `Authorization: Basic base64(client_id:client_secret)` (RFC 6749 §2.3.1) when the body
        /// carries no credentials; both at once is `invalid_request` (TN3107: multiple auth mechanisms).
        case postOrBasic = "post_or_basic"
    }
}
