import HTTPServer
import SIWACore

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
        let accessToken = identifiers.makeAccessToken()
        let refreshToken = identifiers.makeRefreshToken()
        let reply = try run(
            "redeem", RedisScripts.redeem,
            [
                prefix, code, clientID, redirectURI ?? "", redirectURI == nil ? "0" : "1", String(now), accessToken,
                String(now + accessTokenLifetime), Self.ttl(accessTokenLifetime), refreshToken,
            ])
        let (status, grant) = try Self.outcome(of: reply, from: "redeem")
        switch status {
        case "ok":
            guard let grant else { throw StoreUnavailable("redeem returned an incomplete record") }
            return .success(
                IssuedTokens(
                    accessToken: accessToken, refreshToken: refreshToken, grant: grant,
                    accessTokenExpiresIn: accessTokenLifetime))
        case "used": return .failure(.codeAlreadyUsed)
        case "client": return .failure(.clientIDMismatch(issuedTo: clientID))
        case "redirect": return .failure(.redirectURIMismatch(issuedTo: redirectURI ?? ""))
        default: return .failure(.codeExpiredOrRevoked)
        }
    }

    package func refresh(_ refreshToken: String, clientID: String, now: Int64) throws(StoreUnavailable)
        -> Result<IssuedTokens, AppleError>
    {
        let accessToken = identifiers.makeAccessToken()
        let reply = try run(
            "refresh", RedisScripts.refresh,
            [
                prefix, refreshToken, clientID, String(now), accessToken, String(now + accessTokenLifetime),
                Self.ttl(accessTokenLifetime),
            ])
        let (status, grant) = try Self.outcome(of: reply, from: "refresh")
        switch status {
        case "ok":
            guard var grant else { throw StoreUnavailable("refresh returned an incomplete record") }
            grant.nonce = nil
            grant.isFirstAuthorization = false
            grant.realUserStatus = nil
            return .success(
                IssuedTokens(
                    accessToken: accessToken, refreshToken: nil, grant: grant, accessTokenExpiresIn: accessTokenLifetime
                ))
        case "client": return .failure(.invalidGrant("client_id mismatch. The token was not issued to \(clientID)."))
        default: return .failure(.invalidRefreshToken)
        }
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
        let reply = try run(
            "revoke", RedisScripts.revoke, [prefix, token, clientID, hint?.rawValue ?? "", String(now)])
        switch reply.elements?.first?.string {
        case "hint": return .failure(.invalidRequest("token_type_hint mismatch"))
        case "client": return .failure(.tokenClientMismatch(issuedTo: clientID))
        case "ok", "none": return .success(())
        default: throw StoreUnavailable("revoke answered \(reply)")
        }
    }

    /// A script's status word and, after `ok`, the grant in the hash fields that follow it.
    static func outcome(of reply: RESPValue, from script: String) throws(StoreUnavailable) -> (
        String, AuthorizationGrant?
    ) {
        guard let values = reply.elements, let status = values.first?.string else {
            throw StoreUnavailable("\(script) answered \(reply)")
        }
        return (status, status == "ok" ? grant(fields(values.dropFirst())) : nil)
    }
}
