import RESP
import SIWACore
import ScenarioModel

extension RedisGrantStore {
    package func authorize(
        userID: String, clientID: String, consentGroupID: String, requestedScopes: [Scope], redirectURI: String?,
        nonce: String?, now: Int64, nativeRealUserStatus: RealUserStatus?, forcedRealUserStatus: RealUserStatus?,
        emailChoice: EmailChoice?
    ) throws(StoreUnavailable) -> (code: String, grant: AuthorizationGrant) {
        let code = identifiers.makeAuthorizationCode()
        let reply = try run(
            "authorize", RedisScripts.authorize,
            [
                prefix, userID, consentGroupID, Self.scopeText(requestedScopes), String(now),
                String(now + codeLifetime), Self.ttl(codeLifetime), clientID, redirectURI ?? "",
                redirectURI == nil ? "0" : "1", nonce ?? "", nonce == nil ? "0" : "1",
                nativeRealUserStatus.map { String($0.rawValue) } ?? "",
                forcedRealUserStatus.map { String($0.rawValue) } ?? "", code, emailChoice?.rawValue ?? "",
            ])
        guard let values = reply.elements, values.count == 4, let first = values[0].integer else {
            throw StoreUnavailable("authorize answered \(reply)")
        }
        let scopes = (values[1].string ?? "").split(separator: " ").compactMap { Scope(rawValue: String($0)) }
        let grant = AuthorizationGrant(
            clientID: clientID, redirectURI: redirectURI, userID: userID, consentGroupID: consentGroupID,
            scopes: scopes, nonce: nonce, authTime: now, isFirstAuthorization: first == 1,
            realUserStatus: values[2].string.flatMap { Int($0) }.flatMap { RealUserStatus(rawValue: $0) },
            emailChoice: values[3].string.flatMap { EmailChoice(rawValue: $0) })
        return (code, grant)
    }

    package func redeemCode(
        _ code: String, clientID: String, redirectURI: String?, now: Int64
    ) throws(StoreUnavailable) -> Result<IssuedTokens, AppleError> {
        switch try presentCode(code, clientAuthenticated: true, clientID: clientID, redirectURI: redirectURI, now: now)
        {
        case .refused(.used, _): return .failure(.codeAlreadyUsed)
        case .refused, .unauthenticated: return .failure(.codeExpiredOrRevoked)
        case .presented(_, let result): return result
        }
    }

    /// The look-up, the client's verdict and the redemption in one script (`RedisScripts.redeem`): one
    /// round trip per presented code.
    package func presentCode(
        _ code: String, clientAuthenticated: Bool, clientID: String, redirectURI: String?, now: Int64
    ) throws(StoreUnavailable) -> GrantPresentation {
        let accessToken = identifiers.makeAccessToken()
        let refreshToken = identifiers.makeRefreshToken()
        let reply = try run(
            "redeem", RedisScripts.redeem,
            [
                prefix, code, clientID, redirectURI ?? "", redirectURI == nil ? "0" : "1", String(now), accessToken,
                String(now + accessTokenLifetime), Self.ttl(accessTokenLifetime), refreshToken,
                clientAuthenticated ? "1" : "0",
            ])
        let (status, grant) = try Self.outcome(of: reply, from: "redeem")
        switch status {
        case "unknown": return .refused(.unknown, owner: nil)
        case "used": return .refused(.used, owner: grant?.userID)
        case "revoked": return .refused(.revoked, owner: grant?.userID)
        case "gone": return .refused(.expired, owner: grant?.userID)
        default: break
        }
        guard let grant else { throw StoreUnavailable("redeem answered '\(status)' without the code's record") }
        switch status {
        case "unauth": return .unauthenticated(grant)
        case "ok":
            return .presented(grant, issued(grant, accessToken: accessToken, refreshToken: refreshToken))
        case "client": return .presented(grant, .failure(.clientIDMismatch(presented: clientID)))
        case "redirect": return .presented(grant, .failure(.redirectURIMismatch(presented: redirectURI ?? "")))
        default: throw StoreUnavailable("redeem answered '\(status)'")
        }
    }

    package func refresh(_ refreshToken: String, clientID: String, now: Int64) throws(StoreUnavailable)
        -> Result<IssuedTokens, AppleError>
    {
        switch try presentRefreshToken(refreshToken, clientAuthenticated: true, clientID: clientID, now: now) {
        case .refused, .unauthenticated: return .failure(.invalidRefreshToken)
        case .presented(_, let result): return result
        }
    }

    /// The look-up, the client's verdict and the refresh in one script (`RedisScripts.refresh`).
    package func presentRefreshToken(
        _ refreshToken: String, clientAuthenticated: Bool, clientID: String, now: Int64
    ) throws(StoreUnavailable) -> GrantPresentation {
        let accessToken = identifiers.makeAccessToken()
        let reply = try run(
            "refresh", RedisScripts.refresh,
            [
                prefix, refreshToken, clientID, String(now), accessToken, String(now + accessTokenLifetime),
                Self.ttl(accessTokenLifetime), clientAuthenticated ? "1" : "0",
            ])
        let (status, stored) = try Self.outcome(of: reply, from: "refresh")
        if status == "unknown" { return .refused(.unknown, owner: nil) }
        guard let stored else { throw StoreUnavailable("refresh answered '\(status)' without the token's record") }
        switch status {
        case "unauth": return .unauthenticated(stored)
        case "client":
            return .presented(
                stored, .failure(.invalidGrant("client_id mismatch. The token was not issued to \(clientID).")))
        case "ok":
            var grant = stored
            grant.nonce = nil
            grant.isFirstAuthorization = false
            grant.realUserStatus = nil
            return .presented(stored, issued(grant, accessToken: accessToken, refreshToken: nil))
        default: throw StoreUnavailable("refresh answered '\(status)'")
        }
    }

    /// The tokens a redemption or refresh issued for `grant`.
    func issued(_ grant: AuthorizationGrant, accessToken: String, refreshToken: String?) -> Result<
        IssuedTokens, AppleError
    > {
        .success(
            IssuedTokens(
                accessToken: accessToken, refreshToken: refreshToken, grant: grant,
                accessTokenExpiresIn: accessTokenLifetime))
    }

    package func issueClientCredentialsToken(clientID: String, scope: String, now: Int64) throws(StoreUnavailable)
        -> (token: String, expiresIn: Int64)
    {
        let accessToken = identifiers.makeAccessToken()
        let key = key("a", accessToken)
        _ = try pipeline([
            ["HSET", key, "cl", clientID, "sc", scope, "exp", String(now + accessTokenLifetime), "ia", String(now)],
            ["EXPIRE", key, Self.ttl(accessTokenLifetime)],
        ])
        return (accessToken, accessTokenLifetime)
    }

    package func accessToken(_ token: String, now: Int64) throws(StoreUnavailable) -> AccessTokenRecord? {
        let fields = Self.fields(try call(["HGETALL", key("a", token)]).elements?[...] ?? [])
        guard let client = fields["cl"], let expiresAt = Int64(fields["exp"] ?? ""), expiresAt > now else { return nil }
        return AccessTokenRecord(
            clientID: client, grant: Self.grant(fields), scope: fields["sc"].flatMap { $0.isEmpty ? nil : $0 },
            issuedAt: Int64(fields["ia"] ?? "") ?? 0, expiresAt: expiresAt)
    }

    package func revoke(_ token: String, clientID: String, hint: TokenTypeHint?, now: Int64) throws(StoreUnavailable)
        -> Result<Void, AppleError>
    {
        switch try presentForRevocation(token, clientAuthenticated: true, clientID: clientID, hint: hint, now: now) {
        case .notLive, .unauthenticated: return .success(())
        case .presented(let result, _, _): return result
        }
    }

    /// The look-up, the client's verdict and the revocation in one script (`RedisScripts.revoke`).
    package func presentForRevocation(
        _ token: String, clientAuthenticated: Bool, clientID: String, hint: TokenTypeHint?, now: Int64
    ) throws(StoreUnavailable) -> RevocationPresentation {
        let reply = try run(
            "revoke", RedisScripts.revoke,
            [prefix, token, clientID, hint?.rawValue ?? "", String(now), clientAuthenticated ? "1" : "0"])
        guard let values = reply.elements, let status = values.first?.string else {
            throw StoreUnavailable("revoke answered \(reply)")
        }
        if status == "none" { return .notLive }
        guard values.count == 3, let owner = values[1].string, let user = values[2].string else {
            throw StoreUnavailable("revoke answered \(reply)")
        }
        let userID = user.isEmpty ? nil : user
        switch status {
        case "unauth": return .unauthenticated(ownerClient: owner, user: userID)
        case "hint":
            return .presented(.failure(.invalidRequest("token_type_hint mismatch")), ownerClient: owner, user: userID)
        case "client":
            return .presented(.failure(.tokenClientMismatch(presented: clientID)), ownerClient: owner, user: userID)
        case "ok": return .presented(.success(()), ownerClient: owner, user: userID)
        default: throw StoreUnavailable("revoke answered \(reply)")
        }
    }

    /// A script's status word and the grant in the hash fields that follow it (if any).
    static func outcome(of reply: RESPValue, from script: String) throws(StoreUnavailable) -> (
        String, AuthorizationGrant?
    ) {
        guard let values = reply.elements, let status = values.first?.string else {
            throw StoreUnavailable("\(script) answered \(reply)")
        }
        return (status, values.count > 1 ? grant(fields(values.dropFirst())) : nil)
    }
}
