import ScenarioModel

/// One row of the hostile-Apple catalogue as `rp-check` reports it: the case, what a backend that
/// accepts it risks, and the setting of common libraries that refuses it (docs/rp-check.md).
package struct RPCheckCase: Sendable, Equatable {
    package var tamper: TamperCase
    package var risk: String
    package var fix: String

    /// The catalogue's cases for one target, in the order `rp-check` runs them (a replayed `jti` right
    /// after the control, whose `jti` it reuses).
    package static func cases(for target: TamperCase.Target) -> [RPCheckCase] {
        let ordered = TamperCase.cases(for: target).sorted { first, _ in first == .notificationReplayedJTI }
        return ordered.map { RPCheckCase(tamper: $0, risk: risk(of: $0), fix: fix(of: $0)) }
    }

    static func risk(of tamper: TamperCase) -> String {
        switch tamper {
        case .invalidSignature, .notificationInvalidSignature: "anyone can forge a token: the signature is not verified"
        case .algorithmNone: "anyone can forge a token: alg none is accepted"
        case .hmacWithPublicKey: "anyone can forge a token with Apple's public key as an HMAC secret"
        case .unknownKeyID: "the kid is not used to select the key"
        case .keyIDAbsentMultipleKeys: "a token without kid is checked against an arbitrary key"
        case .retiredKey: "a key Apple no longer publishes is still trusted"
        case .invalidIssuer, .issuerHTTP, .issuerTrailingSlash: "tokens from another issuer are accepted"
        case .audienceSameTeam: "a token minted for another app of the team signs users in here"
        case .audienceOtherTeam, .notificationInvalidAudience: "a token minted for another team's app is accepted"
        case .expired: "expired tokens are replayable"
        case .issuedInFuture: "tokens issued in the future (a skewed or forged clock) are accepted"
        case .missingIssuedAt: "a token without iat is accepted"
        case .missingSubject: "a token without sub signs in an empty or default user"
        case .nonceChanged: "a token from another sign-in can be injected (nonce not compared)"
        case .hashChanged: "the code and the token are not bound (c_hash/at_hash not checked)"
        case .emailVerifiedFalseString: "the string \"false\" is read as a verified email"
        case .privateEmailFalseString: "the string \"false\" is read as true for is_private_email"
        case .notificationReplayedJTI: "a replayed notification is processed again"
        case .notificationStaleEventTime: "a notification about an event long ago is acted on"
        }
    }

    static func fix(of tamper: TamperCase) -> String {
        switch tamper {
        case .invalidSignature, .notificationInvalidSignature:
            "verify the signature: PyJWT jwt.decode(token, key, algorithms=[\"RS256\"]), never verify_signature=False"
        case .algorithmNone, .hmacWithPublicKey: "pin algorithms=[\"RS256\"] (PyJWT, python-jose, authlib)"
        case .unknownKeyID, .keyIDAbsentMultipleKeys:
            "select the key by kid (PyJWKClient.get_signing_key_from_jwt) and refuse a missing or unknown kid"
        case .retiredKey: "refetch /auth/keys on an unknown kid; cache it with a lifetime"
        case .invalidIssuer, .issuerHTTP, .issuerTrailingSlash: "issuer=\"https://appleid.apple.com\", compared exactly"
        case .audienceSameTeam, .audienceOtherTeam, .notificationInvalidAudience:
            "audience=<your client_id> (PyJWT audience=, python-jose audience=, authlib claims_options aud)"
        case .expired: "keep exp verification on with a small leeway"
        case .issuedInFuture, .missingIssuedAt: "require and check iat: options={\"require\": [\"iat\", \"exp\"]}"
        case .missingSubject: "require sub: options={\"require\": [\"sub\"]}"
        case .nonceChanged: "compare the nonce claim with the one this sign-in sent"
        case .hashChanged: "check c_hash against the authorization code"
        case .emailVerifiedFalseString, .privateEmailFalseString:
            "compare with True and \"true\" explicitly, never by truthiness"
        case .notificationReplayedJTI: "remember processed jti values and refuse a repeat"
        case .notificationStaleEventTime: "refuse events whose event_time is outside your window"
        }
    }
}
