import JSON

/// One RSA JSON Web Key as Apple publishes it (RFC 7517 §4, RFC 7518 §6.3.1).
package struct JWK: Sendable, Equatable {
    package var kty: String
    package var kid: String
    package var use: String
    package var alg: String
    /// Base64url modulus (342 characters for RSA-2048).
    package var n: String
    /// Base64url public exponent (`AQAB` for 65537).
    package var e: String

    package init(kty: String = "RSA", kid: String, use: String = "sig", alg: String = "RS256", n: String, e: String) {
        self.kty = kty
        self.kid = kid
        self.use = use
        self.alg = alg
        self.n = n
        self.e = e
    }

    /// Reads the six members from a JWK object; each must be a string. Other members are ignored.
    package init(json: JSONObject) throws(JOSEError) {
        func member(_ name: String) throws(JOSEError) -> String {
            guard let value = json[name]?.stringValue else {
                throw JOSEError(.invalidKey, "JWK member \"\(name)\" is missing or not a string")
            }
            return value
        }
        self.init(
            kty: try member("kty"), kid: try member("kid"), use: try member("use"), alg: try member("alg"),
            n: try member("n"), e: try member("e"))
    }

    /// The object with members in the order `kty, kid, use, alg, n, e`.
    package var json: JSONValue {
        [
            "kty": .string(kty), "kid": .string(kid), "use": .string(use), "alg": .string(alg), "n": .string(n),
            "e": .string(e),
        ]
    }
}

/// A JWK Set: `{"keys":[…]}` (RFC 7517 §5).
package struct JWKS: Sendable, Equatable {
    package var keys: [JWK]
    package init(keys: [JWK]) { self.keys = keys }

    /// Reads `{"keys":[…]}` as served by `/auth/keys`.
    package init(json: JSONValue) throws(JOSEError) {
        guard let array = json["keys"]?.arrayValue else {
            throw JOSEError(.invalidKey, "JWKS has no \"keys\" array")
        }
        var keys: [JWK] = []
        for element in array {
            guard let object = element.objectValue else { throw JOSEError(.invalidKey, "JWKS key is not an object") }
            keys.append(try JWK(json: object))
        }
        self.keys = keys
    }

    /// The JSON value `{"keys":[…]}`.
    package var json: JSONValue { ["keys": .array(keys.map(\.json))] }

    /// Compact JSON bytes, byte-stable for a given key list.
    package func serialized() -> [UInt8] { json.serialized() }

    /// Apple's `/auth/keys` layout: two-space indent, `": "` after keys, no final newline (docs/fidelity.md).
    package func prettySerialized() -> [UInt8] { json.prettySerialized() }

    /// The key with this `kid`, if published.
    package func key(withID kid: String) -> JWK? { keys.first { $0.kid == kid } }
}
