import JOSE
import JSON

/// A successful `/auth/token` answer (TokenResponse).
public struct TokenResponse: Sendable, Equatable {
    public var accessToken: String
    public var tokenType: String = "Bearer"
    public var expiresIn: Int64
    public var refreshToken: String?
    public var idToken: String?

    /// `{"access_token","token_type","expires_in","refresh_token"?,"id_token"?}` in Apple's order.
    public var json: JSONValue {
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
    /// `POST /auth/token` on decoded form fields (apple-api.md §2).
    ///
    /// Order: duplicated fields → `invalid_request`; missing or unknown `grant_type` →
    /// `unsupported_grant_type`; missing `client_id`/`client_secret` → `invalid_request`; client secret →
    /// `invalid_client`; then the grant's own fields and rules.
    public func token(_ form: [(name: String, value: String)]) -> Result<TokenResponse, EndpointFailure> {
        do throws(EndpointFailure) {
            return .success(try tokenThrowing(FormFields(form)))
        } catch {
            return .failure(error)
        }
    }

    private func tokenThrowing(_ form: FormFields) throws(EndpointFailure) -> TokenResponse {
        let grantType = form["grant_type"]
        guard let grantType, ["authorization_code", "refresh_token", "client_credentials"].contains(grantType) else {
            throw EndpointFailure(
                .unsupportedGrantType(), reason: "grant_type \(grantType.map { "'\($0)'" } ?? "missing")")
        }
        let clientID = try form.required("client_id")
        let secret = try form.required("client_secret")
        do {
            _ = try clientSecrets.validate(secret, clientID: clientID)
        } catch {
            throw EndpointFailure(.invalidClient, reason: error.description)
        }
        let now = clock.nowSeconds
        switch grantType {
        case "authorization_code":
            let code = try form.required("code")
            let tokens = try store.redeemCode(code, clientID: clientID, redirectURI: form["redirect_uri"], now: now)
                .get(orThrow: { EndpointFailure($0) })
            return try response(for: tokens, now: now)
        case "refresh_token":
            let refreshToken = try form.required("refresh_token")
            let tokens = try store.refresh(refreshToken, clientID: clientID, now: now).get(orThrow: {
                EndpointFailure($0)
            })
            return try response(for: tokens, now: now)
        default:
            guard let scope = form["scope"], !scope.isEmpty else {
                throw EndpointFailure(.invalidRequest("Missing required parameter: scope"))
            }
            guard scope == "user.migration" else { throw EndpointFailure(.invalidScope(), reason: "scope '\(scope)'") }
            let issued = store.issueClientCredentialsToken(clientID: clientID, scope: scope, now: now)
            return TokenResponse(accessToken: issued.token, expiresIn: issued.expiresIn)
        }
    }

    /// Adds the id_token (one RS256 signature) to issued tokens.
    private func response(for tokens: IssuedTokens, now: Int64) throws(EndpointFailure) -> TokenResponse {
        let snapshot = self.snapshot
        guard let user = snapshot.user(id: tokens.grant.userID) else {
            throw EndpointFailure(.invalidGrant(), reason: "user '\(tokens.grant.userID)' is no longer in the scenario")
        }
        let idToken: String
        do {
            idToken = try snapshot.idTokens.makeIDToken(
                for: tokens.grant, user: snapshot.scenario.view(of: user, forClient: tokens.grant.clientID, now: now),
                issuedAt: now, companion: .accessToken(tokens.accessToken))
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
