import JOSE
import JSON
import ScenarioModel

/// The one seam through which a token the mock minted leaves it broken (docs/rp-check.md): it takes the
/// valid compact JWS and returns the case of the hostile-Apple catalogue a fault rule asked for. Nothing
/// calls it without a firing `tamper:` rule (`FaultRule.isEligible`), so the mock otherwise issues only
/// valid tokens (`TamperingTests` checks every shipped scenario).
package struct TokenTamperer: Sendable {
    let scenario: Scenario
    let keys: ScenarioKeys

    package init(scenario: Scenario, keys: ScenarioKeys) {
        self.scenario = scenario
        self.keys = keys
    }

    /// How far `siwa-expired` puts `exp` in the past and `siwa-iat-in-future` puts `iat` ahead: beyond
    /// any clock-skew leeway a library allows by default (PyJWT 0 s, jose 0 s, authlib 0 s).
    static let skewSeconds: Int64 = 3600
    /// The `kid` of `siwa-kid-unknown`: never a key id of any scenario (kids are 10 characters).
    static let unknownKeyID = "siwa-mock-unknown-kid"

    /// The id_token `token` broken as `tamper` says. - Throws: `JOSEError` when `token` is not a JWS or
    /// signing failed; `.unsupportedAlgorithm` for a notification case.
    package func idToken(_ token: String, as tamper: TamperCase) throws(JOSEError) -> String {
        let jws = try JWS(compact: token)
        var header = jws.header
        var claims = jws.payload
        var key = keys.signingKey
        switch tamper {
        case .invalidSignature:
            return Self.flippingSignature(of: jws)
        case .algorithmNone:
            header["alg"] = .string("none")
            return try JWS.assemble(header: header, payload: claims) { _ throws(JOSEError) in [] }
        case .hmacWithPublicKey:
            // The PEM a library writes for the JWKS key (SubjectPublicKeyInfo), as a confused verifier
            // would pass it to HS256.
            header["alg"] = .string("HS256")
            let secret = Array(keys.signingKey.publicKey.pem().utf8)
            return try JWS.assemble(header: header, payload: claims) { input throws(JOSEError) in
                HMACSHA256.authenticate(input, key: secret)
            }
        case .unknownKeyID: header["kid"] = .string(Self.unknownKeyID)
        case .keyIDAbsentMultipleKeys: header["kid"] = nil
        case .retiredKey:
            let retired = try retiredKey()
            header["kid"] = .string(retired.kid)
            key = retired.key
        case .invalidIssuer: claims["iss"] = .string("https://appleid.example.com")
        case .issuerHTTP: claims["iss"] = .string(Self.plainHTTP(scenario.settings.issuer))
        case .issuerTrailingSlash: claims["iss"] = .string(scenario.settings.issuer + "/")
        case .audienceSameTeam: claims["aud"] = .string(otherAudience(than: claims["aud"], sameTeam: true))
        case .audienceOtherTeam: claims["aud"] = .string(otherAudience(than: claims["aud"], sameTeam: false))
        case .expired:
            let lifetime = scenario.settings.idTokenLifetimeSeconds
            let exp = (claims["iat"]?.intValue ?? 0) - Self.skewSeconds
            claims["exp"] = .int(exp)
            claims["iat"] = .int(exp - lifetime)
            if claims["auth_time"] != nil { claims["auth_time"] = .int(exp - lifetime) }
        case .issuedInFuture:
            let iat = (claims["iat"]?.intValue ?? 0) + Self.skewSeconds
            claims["iat"] = .int(iat)
            claims["exp"] = .int(iat + scenario.settings.idTokenLifetimeSeconds)
        case .missingIssuedAt: claims["iat"] = nil
        case .missingSubject: claims["sub"] = nil
        case .nonceChanged: claims["nonce"] = .string((claims["nonce"]?.stringValue ?? "") + "-not-yours")
        case .hashChanged:
            for name in ["c_hash", "at_hash"] where claims[name] != nil {
                claims[name] = .string(IDTokenMaker.halfHash("not the code or token issued with it"))
            }
        case .emailVerifiedFalseString: claims["email_verified"] = .string("false")
        case .privateEmailFalseString: claims["is_private_email"] = .string("false")
        case .notificationInvalidSignature, .notificationInvalidAudience, .notificationReplayedJTI,
            .notificationStaleEventTime:
            throw JOSEError(.unsupportedAlgorithm, "\(tamper.name) is a notification case, not an id_token case")
        }
        return try JWS.sign(header: header, payload: claims, with: key)
    }

    /// The same token with one bit of its signature flipped: everything else exactly as issued.
    static func flippingSignature(of jws: JWS) -> String {
        var signature = jws.signature
        if !signature.isEmpty { signature[signature.count / 2] ^= 0x01 }
        return String(decoding: jws.signingInput, as: UTF8.self) + "." + Base64URL.encode(signature)
    }

    /// `https://x` as `http://x`.
    static func plainHTTP(_ issuer: String) -> String {
        issuer.hasPrefix("https://") ? "http://" + issuer.dropFirst("https://".count) : "http://" + issuer
    }

    /// Another client of the same team as `audience` (else a made-up sibling id), or a client of another
    /// team (else a made-up one).
    func otherAudience(than audience: JSONValue?, sameTeam: Bool) -> String {
        let own = audience?.stringValue ?? ""
        let team = scenario.client(id: own)?.teamID
        if sameTeam {
            return scenario.clients.first { $0.teamID == team && $0.id != own }?.id ?? own + ".other"
        }
        return scenario.clients.first { $0.teamID != team }?.id ?? "com.example.another-team.app"
    }

    /// A key that does not sign and is not published — one rotated out (`key-rotation.yaml`) — else a key
    /// made for the purpose, once per process.
    func retiredKey() throws(JOSEError) -> (kid: String, key: RSAPrivateKey) {
        if let old = scenario.signingKeys.keys.first(where: { !$0.published && !$0.signs }) {
            return (old.kid, try RSAPrivateKey(pem: old.privateKeyPEM))
        }
        guard let made = Self.madeRetiredKey else {
            throw JOSEError(.cryptoFailure, "could not make a key for \(TamperCase.retiredKey.name)")
        }
        return ("siwa-mock-retired", made)
    }

    package static let madeRetiredKey: RSAPrivateKey? = try? RSAPrivateKey.generate()
}
