extension AppleIdentityProvider {
    /// The POST endpoints that read a form body.
    package enum FormEndpoint: Sendable, Equatable {
        case token
        case revoke
    }

    /// The answer to a `/auth/token` or `/auth/revoke` body that is not form-urlencoded (e.g. JSON).
    ///
    /// By default Apple's: the body yields no form credentials, so `invalid_client` with no description
    /// (a-tokyo/apple-signin-auth#28). `non_form_body: unsupported_grant_type` restores the mock's earlier
    /// answer: `unsupported_grant_type` at the token endpoint, `invalid_request` "Invalid content type"
    /// (TN3107) at revoke. See docs/fidelity.md.
    package func nonFormBodyFailure(at endpoint: FormEndpoint, contentType: String?) -> EndpointFailure {
        let body = "Content-Type \(contentType.map { "'\($0)'" } ?? "missing") is not application/x-www-form-urlencoded"
        switch (scenario.settings.nonFormBody, endpoint) {
        case (.invalidClient, _):
            return EndpointFailure(.invalidClient, reason: "\(body): no client_id in a form body")
        case (.unsupportedGrantType, .token):
            return EndpointFailure(.unsupportedGrantType(), reason: "\(body): no readable grant_type")
        case (.unsupportedGrantType, .revoke):
            return EndpointFailure(.invalidRequest("Invalid content type"), reason: body)
        }
    }

    /// `failure` with its reason noting an `Authorization: Basic` header that was not read (scenario
    /// `client_authentication: post`): Apple reads client credentials from the body only.
    package static func notingUnreadBasicHeader(_ failure: EndpointFailure) -> EndpointFailure {
        guard case .apple(let error, let reason) = failure, error == .invalidClient else { return failure }
        return .apple(
            error,
            reason: (reason.map { $0 + "; " } ?? "")
                + "the Authorization: Basic header is not read (client_secret_post only)")
    }
}
