import JSON

/// A JWS in compact serialization (RFC 7515 §7.1), decoded but not verified.
package struct JWS: Sendable {
    /// Longest accepted compact token, in bytes. Apple's tokens are under 2 KiB.
    package static let maximumLength = 16 * 1024

    package let header: JSONObject
    package let payload: JSONObject
    /// `BASE64URL(header) "." BASE64URL(payload)` as ASCII bytes: what the signature covers.
    package let signingInput: [UInt8]
    package let signature: [UInt8]

    /// Decodes `a.b.c`; header and payload must be JSON objects. Bounded: tokens over 16 KiB are rejected.
    /// - Throws: ``JOSEError`` of kind `.malformedToken` saying which part is wrong and why.
    package init(compact: String) throws(JOSEError) {
        let bytes = Array(compact.utf8)
        guard bytes.count <= Self.maximumLength else {
            throw JOSEError(.malformedToken, "token is \(bytes.count) bytes; the limit is \(Self.maximumLength)")
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw JOSEError(.malformedToken, "expected 3 dot-separated parts, found \(parts.count)")
        }
        header = try Self.decodeObject(parts[0], name: "header")
        payload = try Self.decodeObject(parts[1], name: "payload")
        guard let signature = Self.decodeBase64URL(parts[2]) else {
            throw JOSEError(.malformedToken, "signature is not valid base64url")
        }
        self.signature = signature
        signingInput = Array(bytes[parts[0].startIndex..<parts[1].endIndex])
    }

    /// The header's `alg`, if it is a string.
    package var algorithm: String? { header["alg"]?.stringValue }
    /// The header's `kid`, if it is a string.
    package var keyID: String? { header["kid"]?.stringValue }

    /// True when the header says `RS256` and the signature verifies with `key`.
    /// Checking `alg` first prevents algorithm-confusion attacks.
    package func isSigned(by key: RSAPublicKey) -> Bool {
        algorithm == "RS256" && key.verifyRS256(signature: signature, message: signingInput)
    }

    /// True when the header says `ES256` and the raw `r || s` signature verifies with `key`.
    package func isSigned(by key: P256PublicKey) -> Bool {
        algorithm == "ES256" && key.verifyES256(signature: signature, message: signingInput)
    }

    private static func decodeBase64URL(_ part: ArraySlice<UInt8>) -> [UInt8]? {
        Base64URL.decode(String(decoding: part, as: UTF8.self))
    }

    private static func decodeObject(_ part: ArraySlice<UInt8>, name: String) throws(JOSEError) -> JSONObject {
        guard !part.isEmpty else { throw JOSEError(.malformedToken, "\(name) is empty") }
        guard let json = decodeBase64URL(part) else {
            throw JOSEError(.malformedToken, "\(name) is not valid base64url")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(json, maxDepth: 16)
        } catch {
            throw JOSEError(.malformedToken, "\(name) is not valid JSON: \(error)")
        }
        guard let object = value.objectValue else {
            throw JOSEError(.malformedToken, "\(name) is not a JSON object")
        }
        return object
    }
}
