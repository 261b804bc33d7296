import JOSE
import JSON

/// Makes the ES256 JWT a backend sends as `client_secret`
/// (https://developer.apple.com/documentation/accountorganizationaldatasharing/creating-a-client-secret):
/// header `{alg: ES256, kid}`, claims `iss` (Team ID), `iat`, `exp`, `aud` (`https://appleid.apple.com`),
/// `sub` (the client ID). One implementation for `siwa-mock client-secret` and `AppleIDMock.clientSecret`.
package enum ClientSecretSigner {
    /// Apple refuses secrets whose `exp` is more than 15777000 s (about six months) after `iat`.
    package static let maximumLifetimeSeconds: Int64 = 15_777_000

    /// A secret for `clientID`, valid from `issuedAt` (seconds since the epoch) for `lifetime` seconds.
    package static func sign(
        teamID: String, clientID: String, keyID: String, key: P256PrivateKey, issuedAt: Int64, lifetime: Int64
    ) throws(JOSEError) -> String {
        let header = JSONObject([("alg", .string("ES256")), ("kid", .string(keyID))])
        let claims = JSONObject([
            ("iss", .string(teamID)), ("iat", .int(issuedAt)), ("exp", .int(issuedAt + lifetime)),
            ("aud", .string("https://appleid.apple.com")), ("sub", .string(clientID)),
        ])
        return try JWS.sign(header: header, payload: claims, with: key)
    }
}
