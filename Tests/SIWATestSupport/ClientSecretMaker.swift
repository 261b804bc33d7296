import JOSE
import JSON

/// Builds client-secret JWTs, correct by default, with knobs for every way to get one wrong.
package struct ClientSecretMaker: Sendable {
    package var key: P256PrivateKey
    package var teamID: String = TestKeys.teamID
    package var keyID: String? = TestKeys.clientSecretKID
    package var algorithm: String = "ES256"

    /// The built-in scenario's test key.
    package init() throws {
        self.key = try P256PrivateKey(pem: TestKeys.clientSecretPrivateKeyPEM)
    }

    package init(key: P256PrivateKey) {
        self.key = key
    }

    /// The claim set Apple expects; override any field through `edit`.
    package func claims(clientID: String, now: Int64, lifetime: Int64 = 3600) -> JSONObject {
        JSONObject([
            ("iss", .string(teamID)), ("iat", .int(now)), ("exp", .int(now + lifetime)),
            ("aud", .string("https://appleid.apple.com")), ("sub", .string(clientID)),
        ])
    }

    package func header() -> JSONObject {
        var header = JSONObject([("alg", .string(algorithm))])
        if let keyID { header["kid"] = .string(keyID) }
        return header
    }

    /// A signed secret for `clientID`, valid from `now` for `lifetime` seconds.
    package func make(
        clientID: String, now: Int64, lifetime: Int64 = 3600, edit: (inout JSONObject) -> Void = { _ in }
    ) throws -> String {
        var payload = claims(clientID: clientID, now: now, lifetime: lifetime)
        edit(&payload)
        return try JWS.sign(header: header(), payload: payload, with: key)
    }

    /// Signs arbitrary header and payload, then lets `signature` rewrite the raw signature bytes.
    package func make(
        header: JSONObject, payload: JSONObject, signature transform: ([UInt8]) -> [UInt8]
    ) throws -> String {
        let input = Base64URL.encode(header.json.serialized()) + "." + Base64URL.encode(payload.json.serialized())
        let signature = transform(try key.signES256(Array(input.utf8)))
        return input + "." + Base64URL.encode(signature)
    }
}

extension JSONObject {
    /// Wraps the object as a value.
    package var json: JSONValue { .object(self) }
}
