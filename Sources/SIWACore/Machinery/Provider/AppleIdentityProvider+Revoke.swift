extension AppleIdentityProvider {
    /// `POST /auth/revoke` on decoded form fields. Success has an empty body. The decision order is
    /// docs/fidelity.md's table:
    ///
    /// 1. a duplicated field → `invalid_request`;
    /// 2. no `client_id` or `client_secret` in the body → `invalid_client`;
    /// 3. no `token`, or an unknown `token_type_hint` → `invalid_request`;
    /// 4. a token that is not live (unknown, expired, revoked) → 200, whoever the client is (Apple: a-tokyo/
    ///    apple-signin-auth's live test revokes a bogus token with a fake client and gets 200);
    /// 5. the client secret → `invalid_client`;
    /// 6. `IdentityStore.revoke`: hint mismatch, then a token issued to another client → `invalid_request`.
    ///
    /// Steps 4 to 6 are one store step (`GrantStore.presentForRevocation`, the client checked before it):
    /// one round trip with a shared store. `owner` is set to the token's user when the store knew it.
    package func revoke(_ form: [(name: String, value: String)]) -> Result<Void, EndpointFailure> {
        var owner: PresentedOwner?
        return revoke(form, owner: &owner)
    }

    /// `revoke(_:)`, setting `owner` to the presented token's user when the store knew it.
    package func revoke(
        _ form: [(name: String, value: String)], owner: inout PresentedOwner?
    ) -> Result<Void, EndpointFailure> {
        do throws(EndpointFailure) {
            let fields = try FormFields(form)
            let (clientID, secret) = try fields.bodyCredentials()
            let token = try fields.required("token")
            var hint: TokenTypeHint?
            if let raw = fields["token_type_hint"] {
                guard let parsed = TokenTypeHint(rawValue: raw) else {
                    throw EndpointFailure(.invalidRequest("Invalid token_type_hint"))
                }
                hint = parsed
            }
            let now = clock.nowSeconds
            let snapshot = self.snapshot  // one scenario version for the whole request
            let store = snapshot.store
            let authenticated = authentication(secret, clientID: clientID, with: snapshot.clientSecrets)
            let presented = try EndpointFailure.storing { () throws(StoreUnavailable) in
                try store.presentForRevocation(
                    token, clientAuthenticated: authenticated.isSuccess, clientID: clientID, hint: hint, now: now)
            }
            owner = PresentedOwner(user: presented.user)
            switch presented {
            case .notLive:
                return .success(())
            case .unauthenticated:
                try authenticated.get()
                throw EndpointFailure.internalError("the store refused an authenticated client")
            case .presented(let revoked, let ownerClient, _):
                return revoked.mapError { error in
                    let reason =
                        error == .tokenClientMismatch(presented: clientID)
                        ? "issued to client_id '\(ownerClient)'" : nil
                    return EndpointFailure(error, reason: reason)
                }
            }
        } catch {
            return .failure(error)
        }
    }
}
