import JOSE
import JSON
import ScenarioModel

/// Builds and signs Apple identity tokens (docs/fidelity.md, "id_token").
///
/// Header `{"kid":…,"alg":"RS256"}` (no `typ`). Claims in the order of Apple's tokens captured 2020–2025:
/// `iss`, `aud`, `exp`, `iat`, `sub`, `nonce` (only if sent), `at_hash` (token endpoint) or `c_hash`
/// (hybrid authorize, native credential), `email`, `email_verified`, `is_private_email` (only if the email
/// scope was granted at first consent; `is_private_email` omitted when false unless the scenario says
/// otherwise, and for users with `is_private_email_claim: false`), `auth_time` (not on refresh id_tokens
/// unless `refresh_id_token_auth_time`), `nonce_supported` (a real `true`; not on refresh id_tokens: a
/// refresh grant's id_token captured in 2020 carries exactly `iss, aud, exp, iat, sub, at_hash, email,
/// email_verified`, docs/fidelity.md "id_token claims"), then — not placed by any capture —
/// `real_user_status` (native first authorization only) and `transfer_sub` (migrated users).
package struct IDTokenMaker: Sendable {
    package let settings: ScenarioSettings
    package let keyID: String
    /// Read at signing time: the built-in scenario's keys are parsed on first use (`ScenarioKeys`).
    private let keys: ScenarioKeys
    private var key: RSAPrivateKey { keys.signingKey }

    package init(settings: ScenarioSettings, keys: ScenarioKeys) {
        self.settings = settings
        self.keyID = keys.signingKID
        self.keys = keys
    }

    /// Which token travels with the id_token, for the matching hash claim.
    package enum Companion: Sendable, Equatable {
        case accessToken(String)
        case code(String)
        case none
    }

    /// The grant an id_token is issued for: a sign-in (authorize, code redemption, native credential) or a
    /// refresh-token grant, whose id_tokens lack `auth_time` by default (AzimoLabs/apple-sign-in-php-sdk#12).
    package enum Occasion: Sendable, Equatable {
        case signIn
        case refresh
    }

    /// The signed compact JWS. One RS256 signature.
    package func makeIDToken(
        for grant: AuthorizationGrant, user: UserProfile, issuedAt now: Int64, companion: Companion,
        occasion: Occasion = .signIn
    ) throws(JOSEError) -> String {
        let header = JSONObject([("kid", .string(keyID)), ("alg", .string("RS256"))])
        return try JWS.sign(
            header: header,
            payload: claims(for: grant, user: user, issuedAt: now, companion: companion, occasion: occasion), with: key)
    }

    /// The claim set, in the captured order (see the type's documentation).
    package func claims(
        for grant: AuthorizationGrant, user: UserProfile, issuedAt now: Int64, companion: Companion,
        occasion: Occasion = .signIn
    ) -> JSONObject {
        var claims = JSONObject()
        claims["iss"] = .string(settings.issuer)
        claims["aud"] = .string(grant.clientID)
        claims["exp"] = .int(now + settings.idTokenLifetimeSeconds)
        claims["iat"] = .int(now)
        claims["sub"] = .string(user.sub)
        if let nonce = grant.nonce { claims["nonce"] = .string(nonce) }
        switch companion {
        case .accessToken(let token): claims["at_hash"] = .string(Self.halfHash(token))
        case .code(let code): claims["c_hash"] = .string(Self.halfHash(code))
        case .none: break
        }
        if grant.includesEmail {
            claims["email"] = .string(user.deliveredEmail)
            claims["email_verified"] = flag(user.emailVerified)
            let isPrivate = user.isDeliveredEmailPrivate
            if user.sendsPrivateEmailClaim && (isPrivate || settings.includeFalsePrivateEmail) {
                claims["is_private_email"] = flag(isPrivate)
            }
        }
        if occasion == .signIn || settings.refreshIDTokenAuthTime { claims["auth_time"] = .int(grant.authTime) }
        if occasion == .signIn { claims["nonce_supported"] = .bool(true) }
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
    package static func halfHash(_ token: String) -> String {
        Base64URL.encode(SHA256.hash(token.utf8).prefix(16))
    }
}
