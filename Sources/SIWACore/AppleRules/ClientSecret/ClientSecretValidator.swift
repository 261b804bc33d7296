import JOSE
import JSON
import ScenarioModel

/// Checks a `client_secret` JWT the way Apple does (docs/fidelity.md; TN3107).
///
/// Header `alg` ES256 and `kid`; claims `iss` = the client's Team ID, `sub` = client_id (exact),
/// `aud` = `https://appleid.apple.com` (a string, or an array containing it, as RFC 7519 §4.1.3
/// allows; Apple's docs show only the string form), `iat` not in the future beyond a small skew,
/// `exp` after now and at most 15777000 s after now; an ES256 signature in raw `r || s` form made by
/// the team's registered key for `kid`. Verified secrets are cached by SHA-256 so a repeated secret
/// skips the signature check; the time and identity checks are re-run on every use.
package struct ClientSecretValidator: Sendable {
    package static let audience = "https://appleid.apple.com"

    private let scenario: Scenario
    /// Read per check: the built-in scenario's keys are parsed on first use (`ScenarioKeys`).
    private let keys: ScenarioKeys
    private var teamKeys: [String: [String: P256PublicKey]] { keys.teamKeys }
    private let clock: any SIWAClock
    private let cache: ClientSecretCache

    package init(scenario: Scenario, keys: ScenarioKeys, clock: any SIWAClock, cacheCapacity: Int = 4096) {
        self.scenario = scenario
        self.keys = keys
        self.clock = clock
        self.cache = ClientSecretCache(capacity: cacheCapacity)
    }

    /// Validates `secret` for the form's `client_id`.
    ///
    /// - Throws: the precise reason; callers answer `invalid_client` whatever it is.
    package func validate(_ secret: String, clientID: String) throws(ClientSecretFailure) -> ClientSecretValidation {
        let now = clock.nowSeconds
        let digest = SHA256.hash(secret.utf8)
        if let cached = cache.lookup(digest, now: now) {
            try checkClaims(cached, clientID: clientID, now: now)
            return ClientSecretValidation(
                clientID: clientID, teamID: cached.issuer, keyID: cached.keyID,
                signatureVerified: cached.signatureVerified, fromCache: true)
        }

        let jws: JWS
        do {
            jws = try JWS(compact: secret)
        } catch {
            throw .malformed(error.message)
        }
        let claims = try Self.readClaims(jws)
        try checkClaims(claims, clientID: clientID, now: now)

        var verified = false
        if let keys = teamKeys[claims.issuer], !keys.isEmpty {
            guard let key = keys[claims.keyID] else { throw .unknownKeyID(claims.keyID) }
            guard jws.signature.count == 64 else { throw .signatureNotRaw(byteCount: jws.signature.count) }
            guard key.verifyES256(signature: jws.signature, message: jws.signingInput) else { throw .badSignature }
            verified = true
        } else if jws.signature.count != 64 {
            // No key to check against, but the encoding rule still holds.
            throw .signatureNotRaw(byteCount: jws.signature.count)
        }
        var stored = claims
        stored.signatureVerified = verified
        cache.store(digest, stored, now: now)
        return ClientSecretValidation(
            clientID: clientID, teamID: claims.issuer, keyID: claims.keyID, signatureVerified: verified,
            fromCache: false)
    }

    /// Whether a team has keys (when it has none, signatures are not checked and the server logs it).
    package func verifiesSignatures(forTeam teamID: String) -> Bool { !(teamKeys[teamID]?.isEmpty ?? true) }

    private func checkClaims(_ claims: ClientSecretClaims, clientID: String, now: Int64) throws(ClientSecretFailure) {
        guard claims.subject == clientID else { throw .wrongSubject(claims.subject, clientID: clientID) }
        guard let client = scenario.client(id: clientID) else { throw .unknownClient(clientID) }
        guard claims.issuer == client.teamID else { throw .wrongIssuer(claims.issuer) }
        guard claims.audienceMatches else { throw .wrongAudience }
        let settings = scenario.settings
        guard claims.expiresAt > now else { throw .expired }
        // Any Int64 is a valid claim and the mock clock may be set before the epoch: never overflow.
        let (lifetime, lifetimeOverflow) = claims.expiresAt.subtractingReportingOverflow(now)
        guard !lifetimeOverflow, lifetime <= settings.clientSecretMaxLifetimeSeconds else { throw .expiresTooFarAhead }
        let (latestIssue, issueOverflow) = now.addingReportingOverflow(settings.clientSecretClockSkewSeconds)
        guard issueOverflow || claims.issuedAt <= latestIssue else { throw .issuedInFuture }
    }

    static func readClaims(_ jws: JWS) throws(ClientSecretFailure) -> ClientSecretClaims {
        guard case .string(let alg)? = jws.header["alg"] else { throw .wrongAlgorithm(nil) }
        guard alg == "ES256" else { throw .wrongAlgorithm(alg) }
        guard case .string(let kid)? = jws.header["kid"], !kid.isEmpty else { throw .missingKeyID }
        let payload = jws.payload
        guard case .string(let iss)? = payload["iss"] else { throw .missingClaim("iss") }
        guard case .string(let sub)? = payload["sub"] else { throw .missingClaim("sub") }
        guard let iat = integer(payload["iat"]) else { throw .missingClaim("iat") }
        guard let exp = integer(payload["exp"]) else { throw .missingClaim("exp") }
        let audienceMatches: Bool
        switch payload["aud"] {
        case .string(let aud)?: audienceMatches = aud == audience
        case .array(let values)?: audienceMatches = values.contains(.string(audience))
        case nil: throw .missingClaim("aud")
        default: audienceMatches = false
        }
        return ClientSecretClaims(
            issuer: iss, subject: sub, keyID: kid, issuedAt: iat, expiresAt: exp, audienceMatches: audienceMatches,
            signatureVerified: false)
    }

    /// A NumericDate: an integer, or a double with no fractional part within Int64 range.
    static func integer(_ value: JSONValue?) -> Int64? {
        switch value {
        case .int(let i)?: return i
        case .double(let d)? where d.rounded() == d && abs(d) < 9.0e15: return Int64(d)
        default: return nil
        }
    }
}

/// The parts of a client secret that validation needs again on a cache hit.
struct ClientSecretClaims: Sendable, Equatable {
    var issuer: String
    var subject: String
    var keyID: String
    var issuedAt: Int64
    var expiresAt: Int64
    var audienceMatches: Bool
    var signatureVerified: Bool
}
