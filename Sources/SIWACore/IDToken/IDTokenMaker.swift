import JOSE
import JSON

/// Builds and signs Apple identity tokens, as described at
/// https://developer.apple.com/documentation/signinwithapple/authenticating-users-with-sign-in-with-apple
///
/// Header `{"kid":…,"alg":"RS256"}` (no `typ`). Claims, in this order: `iss`, `aud`, `exp`, `iat`,
/// `sub`, `at_hash` (token endpoint) or `c_hash` (hybrid authorize), `nonce` (only if sent),
/// `nonce_supported` (always a real `true`), `email`, `email_verified`, `is_private_email` (only if the
/// email scope was granted at first consent; `is_private_email` omitted when false unless the
/// scenario says otherwise), `auth_time`, `real_user_status` (native first authorization only),
/// `transfer_sub` (migrated users).
public struct IDTokenMaker: Sendable {
    public let settings: ScenarioSettings
    public let keyID: String
    private let key: RSAPrivateKey

    public init(settings: ScenarioSettings, keys: ScenarioKeys) {
        self.settings = settings
        self.keyID = keys.signingKID
        self.key = keys.signingKey
    }

    /// Which token travels with the id_token, for the matching hash claim.
    public enum Companion: Sendable, Equatable {
        case accessToken(String)
        case code(String)
        case none
    }

    /// The signed compact JWS. One RS256 signature.
    public func makeIDToken(
        for grant: AuthorizationGrant, user: UserProfile, issuedAt now: Int64, companion: Companion
    ) throws(JOSEError) -> String {
        let header = JSONObject([("kid", .string(keyID)), ("alg", .string("RS256"))])
        return try JWS.sign(
            header: header, payload: claims(for: grant, user: user, issuedAt: now, companion: companion), with: key)
    }

    /// The claim set, in Apple's order.
    public func claims(for grant: AuthorizationGrant, user: UserProfile, issuedAt now: Int64, companion: Companion)
        -> JSONObject
    {
        var claims = JSONObject()
        claims["iss"] = .string(settings.issuer)
        claims["aud"] = .string(grant.clientID)
        claims["exp"] = .int(now + settings.idTokenLifetimeSeconds)
        claims["iat"] = .int(now)
        claims["sub"] = .string(user.sub)
        switch companion {
        case .accessToken(let token): claims["at_hash"] = .string(Self.halfHash(token))
        case .code(let code): claims["c_hash"] = .string(Self.halfHash(code))
        case .none: break
        }
        if let nonce = grant.nonce { claims["nonce"] = .string(nonce) }
        claims["nonce_supported"] = .bool(true)
        if grant.includesEmail {
            claims["email"] = .string(user.deliveredEmail)
            claims["email_verified"] = flag(user.emailVerified)
            let isPrivate = user.isDeliveredEmailPrivate
            if isPrivate || settings.includeFalsePrivateEmail { claims["is_private_email"] = flag(isPrivate) }
        }
        claims["auth_time"] = .int(grant.authTime)
        if let status = grant.realUserStatus { claims["real_user_status"] = .int(Int64(status.rawValue)) }
        if let transferSub = user.transferSub { claims["transfer_sub"] = .string(transferSub) }
        return claims
    }

    /// A boolean in the scenario's style: `true` or `"true"`.
    func flag(_ value: Bool) -> JSONValue {
        switch settings.booleanStyle {
        case .bool: .bool(value)
        case .string: .string(value ? "true" : "false")
        }
    }

    /// `at_hash` / `c_hash`: base64url of the left half of SHA-256 over the token's ASCII (OIDC Core §3.1.3.6).
    public static func halfHash(_ token: String) -> String {
        Base64URL.encode(SHA256.hash(token.utf8).prefix(16))
    }
}
