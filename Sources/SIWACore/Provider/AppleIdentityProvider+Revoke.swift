extension AppleIdentityProvider {
    /// `POST /auth/revoke` on decoded form fields
    /// (https://developer.apple.com/documentation/signinwithapplerestapi/revoke-tokens).
    /// Success has an empty body.
    ///
    /// Duplicated or missing fields and an unknown `token_type_hint` → `invalid_request`; a bad client
    /// secret → `invalid_client`; then `IdentityStore.revoke` (idempotent for unknown tokens).
    public func revoke(_ form: [(name: String, value: String)]) -> Result<Void, EndpointFailure> {
        do throws(EndpointFailure) {
            let fields = try FormFields(form)
            let clientID = try fields.required("client_id")
            let secret = try fields.required("client_secret")
            let token = try fields.required("token")
            var hint: TokenTypeHint?
            if let raw = fields["token_type_hint"] {
                guard let parsed = TokenTypeHint(rawValue: raw) else {
                    throw EndpointFailure(.invalidRequest("Invalid token_type_hint"))
                }
                hint = parsed
            }
            do {
                _ = try clientSecrets.validate(secret, clientID: clientID)
            } catch {
                throw EndpointFailure(.invalidClient, reason: error.description)
            }
            return store.revoke(token, clientID: clientID, hint: hint, now: clock.nowSeconds).mapError {
                EndpointFailure($0)
            }
        } catch {
            return .failure(error)
        }
    }
}
