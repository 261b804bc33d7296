import JSON

extension JWS {
    /// Signs with RS256; `header` should carry `alg` and `kid` (they are not added).
    /// - Returns: `header.payload.signature`, each part base64url of the compact JSON.
    package static func sign(header: JSONObject, payload: JSONObject, with key: RSAPrivateKey) throws(JOSEError)
        -> String
    {
        let input = signingInput(header: header, payload: payload)
        return compact(signingInput: input, signature: try key.signRS256(input))
    }

    /// Signs with ES256 (raw `r || s`).
    package static func sign(header: JSONObject, payload: JSONObject, with key: P256PrivateKey) throws(JOSEError)
        -> String
    {
        let input = signingInput(header: header, payload: payload)
        return compact(signingInput: input, signature: try key.signES256(input))
    }

    /// The compact form of `header` and `payload` with whatever `sign` makes of the signing input —
    /// an HS256 MAC, an empty signature for `alg: none` — for the hostile-Apple catalogue (docs/rp-check.md).
    package static func assemble(
        header: JSONObject, payload: JSONObject, sign: ([UInt8]) throws(JOSEError) -> [UInt8]
    ) throws(JOSEError) -> String {
        let input = signingInput(header: header, payload: payload)
        return compact(signingInput: input, signature: try sign(input))
    }

    private static func signingInput(header: JSONObject, payload: JSONObject) -> [UInt8] {
        let encodedHeader = Base64URL.encode(JSONValue.object(header).serialized())
        let encodedPayload = Base64URL.encode(JSONValue.object(payload).serialized())
        return Array("\(encodedHeader).\(encodedPayload)".utf8)
    }

    private static func compact(signingInput: [UInt8], signature: [UInt8]) -> String {
        String(decoding: signingInput, as: UTF8.self) + "." + Base64URL.encode(signature)
    }
}
