import JOSE
import JSON

/// The checks Apple tells a backend to make on an identity token
/// (https://developer.apple.com/documentation/signinwithapple/verifying-a-user): the RS256 signature
/// with the JWKS key its `kid` names, `iss`, `aud`, `exp` and `iat` against a given clock, and the
/// `nonce`. One implementation for `siwa-mock verify` and `AppleIDMock.verify(idToken:audience:)`.
package enum IDTokenVerification {
    /// Tolerance for an `iat` slightly ahead of now (clocks a little apart), as most JWT libraries allow.
    package static let leewaySeconds: Int64 = 60

    /// Every problem with `jws`, in words; empty when the token checks out.
    /// - Parameters:
    ///   - audience: the expected `aud` (bundle ID or Services ID); nil: not checked.
    ///   - nonce: the expected `nonce`; nil: not checked.
    ///   - now: seconds since the epoch, by the clock the token is judged with.
    package static func problems(
        of jws: JWS, keys: JWKS, issuer: String, audience: String?, nonce: String?, now: Int64
    ) -> [String] {
        var problems: [String] = []
        if jws.algorithm != "RS256" { problems.append("alg is \(jws.algorithm ?? "missing"), expected RS256") }
        if let kid = jws.keyID, let jwk = keys.key(withID: kid), let key = try? RSAPublicKey(jwk: jwk) {
            if !jws.isSigned(by: key) { problems.append("signature does not verify with key \(kid)") }
        } else {
            problems.append("no key in the JWKS for kid \(jws.keyID ?? "(none)")")
        }
        if jws.payload["iss"]?.stringValue != issuer { problems.append("iss is not \(issuer)") }
        if let audience, jws.payload["aud"]?.stringValue != audience { problems.append("aud is not \(audience)") }
        if let exp = jws.payload["exp"]?.intValue {
            if exp <= now { problems.append("expired at \(exp), \(now - exp) s before now (\(now))") }
        } else {
            problems.append("exp is missing")
        }
        if let iat = jws.payload["iat"]?.intValue, iat > now + leewaySeconds {
            problems.append("issued in the future: iat \(iat) is \(iat - now) s after now (\(now))")
        }
        if let nonce, jws.payload["nonce"]?.stringValue != nonce { problems.append("nonce does not match") }
        return problems
    }
}
