import JOSE
import JSON

/// A successful `/auth/token` answer (TokenResponse).
package struct TokenResponse: Sendable, Equatable {
    package var accessToken: String
    package var tokenType: String = "Bearer"
    package var expiresIn: Int64
    package var refreshToken: String?
    package var idToken: String?

    /// `{"access_token","token_type","expires_in","refresh_token"?,"id_token"?}`, the order of Apple's
    /// documented example.
    package var json: JSONValue {
        var object = JSONObject()
        object["access_token"] = .string(accessToken)
        object["token_type"] = .string(tokenType)
        object["expires_in"] = .int(expiresIn)
        if let refreshToken { object["refresh_token"] = .string(refreshToken) }
        if let idToken { object["id_token"] = .string(idToken) }
        return .object(object)
    }
}

extension AppleIdentityProvider {
    /// `POST /auth/token` on decoded form fields. The decision order is docs/fidelity.md's table:
    ///
    /// 1. a duplicated field → `invalid_request`;
    /// 2. no `client_id` or `client_secret` in the body → `invalid_client` (Apple: omniauth-apple#68, #85);
    /// 3. missing or unknown `grant_type` → `unsupported_grant_type`;
    /// 4. the presented code or refresh token is looked up: unknown, expired, used or revoked →
    ///    `invalid_grant`, whoever the client is (Apple: a-tokyo/apple-signin-auth's live test);
    /// 5. the client secret → `invalid_client` (Apple: aboutyou/dart_packages#108);
    /// 6. a missing code or refresh token → `invalid_request`;
    /// 7. the grant's binding: client_id, then redirect_uri → `invalid_grant` "… mismatch …".
    ///
    /// Only a request that passes every check consumes the code. The client secret is checked before the
    /// store is asked and its verdict handed to the store's one step (`GrantStore.presentCode`), which
    /// decides in this order: a shared store answers in one round trip.
    ///
    /// `owner` is set to the user the presented code or token belongs to, when the store knew it (the
    /// journal's user, so the pipeline need not ask the store again).
    package func token(
        _ form: [(name: String, value: String)], owner: inout PresentedOwner?
    ) -> Result<TokenResponse, EndpointFailure> {
        do throws(EndpointFailure) {
            return .success(try tokenThrowing(FormFields(form), owner: &owner))
        } catch {
            return .failure(error)
        }
    }

    /// `token(_:owner:)` when the owner is not wanted.
    package func token(_ form: [(name: String, value: String)]) -> Result<TokenResponse, EndpointFailure> {
        var owner: PresentedOwner?
        return token(form, owner: &owner)
    }

    private func tokenThrowing(_ form: FormFields, owner: inout PresentedOwner?) throws(EndpointFailure)
        -> TokenResponse
    {
        // One snapshot for the whole request: store, secrets and keys of the same scenario version.
        let snapshot = self.snapshot
        let store = snapshot.store
        let (clientID, secret) = try form.bodyCredentials()
        let grantType = form["grant_type"]
        guard let grantType, ["authorization_code", "refresh_token", "client_credentials"].contains(grantType) else {
            throw EndpointFailure(
                .unsupportedGrantType(), reason: "grant_type \(grantType.map { "'\($0)'" } ?? "missing")")
        }
        let now = clock.nowSeconds
        switch grantType {
        case "authorization_code":
            let authenticated = authentication(secret, clientID: clientID, with: snapshot.clientSecrets)
            guard let code = form.present("code") else {
                try authenticated.get()
                throw FormFields.missing("code")
            }
            let redirectURI = form["redirect_uri"]
            let presented = try EndpointFailure.storing { () throws(StoreUnavailable) in
                try store.presentCode(
                    code, clientAuthenticated: authenticated.isSuccess, clientID: clientID, redirectURI: redirectURI,
                    now: now)
            }
            owner = PresentedOwner(user: presented.owner)
            let (grant, redeemed) = try Self.presented(presented, authenticated, what: "code")
            let tokens = try redeemed.get {
                EndpointFailure($0, reason: Self.bindingReason(grant, clientID: clientID, redirectURI: redirectURI))
            }
            return try response(for: tokens, now: now, occasion: .signIn, snapshot: snapshot)
        case "refresh_token":
            let authenticated = authentication(secret, clientID: clientID, with: snapshot.clientSecrets)
            guard let refreshToken = form.present("refresh_token") else {
                try authenticated.get()
                throw FormFields.missing("refresh_token")
            }
            let presented = try EndpointFailure.storing { () throws(StoreUnavailable) in
                try store.presentRefreshToken(
                    refreshToken, clientAuthenticated: authenticated.isSuccess, clientID: clientID, now: now)
            }
            owner = PresentedOwner(user: presented.owner)
            let (grant, refreshed) = try Self.presented(presented, authenticated, what: "refresh_token")
            let tokens = try refreshed.get {
                EndpointFailure($0, reason: Self.bindingReason(grant, clientID: clientID, redirectURI: nil))
            }
            return try response(for: tokens, now: now, occasion: .refresh, snapshot: snapshot)
        default:
            try authenticate(secret, clientID: clientID, with: snapshot.clientSecrets)
            guard let scope = form["scope"], !scope.isEmpty else {
                throw FormFields.missing("scope")
            }
            guard scope == "user.migration" else { throw EndpointFailure(.invalidScope(), reason: "scope '\(scope)'") }
            let issued = try EndpointFailure.storing { () throws(StoreUnavailable) in
                try store.issueClientCredentialsToken(clientID: clientID, scope: scope, now: now)
            }
            return TokenResponse(accessToken: issued.token, expiresIn: issued.expiresIn)
        }
    }

    /// The store's verdict on a presented code or refresh token, in Apple's order: not live →
    /// `invalid_grant` (whoever the client is), then the client's authentication → `invalid_client`, then
    /// the grant and the store's redemption or refresh.
    static func presented(
        _ presentation: GrantPresentation, _ authenticated: Result<Void, EndpointFailure>, what: String
    ) throws(EndpointFailure) -> (AuthorizationGrant, Result<IssuedTokens, AppleError>) {
        switch presentation {
        case .refused(let lookup, _):
            _ = try liveGrant(lookup, what: what)
            throw EndpointFailure.internalError("a refused \(what) was live")
        case .unauthenticated:
            try authenticated.get()
            throw EndpointFailure.internalError("the store refused an authenticated client")
        case .presented(let grant, let result):
            return (grant, result)
        }
    }

    /// `authenticate` as a value: checked before the store step, which needs only whether it passed.
    func authentication(_ secret: String, clientID: String, with clientSecrets: ClientSecretValidator)
        -> Result<Void, EndpointFailure>
    {
        do throws(EndpointFailure) {
            try authenticate(secret, clientID: clientID, with: clientSecrets)
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// The client secret for `clientID`, or `invalid_client` with the validator's reason.
    func authenticate(_ secret: String, clientID: String, with clientSecrets: ClientSecretValidator)
        throws(EndpointFailure)
    {
        do {
            _ = try clientSecrets.validate(secret, clientID: clientID)
        } catch {
            throw EndpointFailure(.invalidClient, reason: error.description)
        }
    }

    /// The grant of a live code or refresh token, or Apple's `invalid_grant` for it.
    static func liveGrant(_ lookup: GrantLookup, what: String) throws(EndpointFailure) -> AuthorizationGrant {
        let error: AppleError = what == "code" ? .codeExpiredOrRevoked : .invalidRefreshToken
        switch lookup {
        case .live(let grant): return grant
        case .used: throw EndpointFailure(.codeAlreadyUsed, reason: "\(what) was redeemed before")
        case .unknown: throw EndpointFailure(error, reason: "\(what) was never issued (or was collected)")
        case .expired: throw EndpointFailure(error, reason: "\(what) is past its lifetime")
        case .revoked: throw EndpointFailure(error, reason: "\(what)'s authorization was revoked")
        }
    }

    /// Why a live grant was refused at redemption: the binding that differs (or a concurrent redemption).
    static func bindingReason(_ grant: AuthorizationGrant, clientID: String, redirectURI: String?) -> String {
        if grant.clientID != clientID { return "issued to client_id '\(grant.clientID)' ≠ '\(clientID)'" }
        if grant.redirectURI != redirectURI {
            return "issued with redirect_uri \(grant.redirectURI.map { "'\($0)'" } ?? "none") ≠ "
                + (redirectURI.map { "'\($0)'" } ?? "none")
        }
        return "redeemed by a concurrent request"
    }

    /// Adds the id_token (one RS256 signature) to issued tokens.
    /// A refresh grant's response carries an id_token unless `refresh_id_token: false`.
    private func response(
        for tokens: IssuedTokens, now: Int64, occasion: IDTokenMaker.Occasion, snapshot: ProviderSnapshot
    ) throws(EndpointFailure) -> TokenResponse {
        if occasion == .refresh && !snapshot.scenario.settings.refreshIDToken {
            return TokenResponse(accessToken: tokens.accessToken, expiresIn: tokens.accessTokenExpiresIn)
        }
        // A user another replica added moments ago is taken from the fleet before refusing (the code is
        // consumed by now: a refusal here must be a real deletion, not the fleet's propagation).
        guard let (user, snapshot) = user(id: tokens.grant.userID, in: snapshot) else {
            throw EndpointFailure(.invalidGrant(), reason: "user '\(tokens.grant.userID)' is no longer in the scenario")
        }
        let idToken: String
        do {
            idToken = try snapshot.idTokens.makeIDToken(
                for: tokens.grant,
                user: snapshot.scenario.view(
                    of: user, forClient: tokens.grant.clientID, now: now, emailChoice: tokens.grant.emailChoice),
                issuedAt: now, companion: .accessToken(tokens.accessToken), occasion: occasion)
        } catch {
            throw EndpointFailure.internalError("id_token signing failed: \(error.message)")
        }
        return TokenResponse(
            accessToken: tokens.accessToken, expiresIn: tokens.accessTokenExpiresIn, refreshToken: tokens.refreshToken,
            idToken: idToken)
    }
}

extension Result {
    /// The success value, or the failure mapped into a typed throw.
    func get<E: Error>(orThrow transform: (Failure) -> E) throws(E) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw transform(error)
        }
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { true } else { false }
    }
}
