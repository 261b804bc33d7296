import JOSE
import JSON
import Testing

@Suite struct JWSTests {
    static let rsa = Result { try RSAPrivateKey(pem: PEMFixtures.rsaPKCS1) }

    @Test func rs256SignThenDecodeAndVerify() throws {
        let key = try Self.rsa.get()
        let header: JSONObject = ["kid": "Aj3F8kLq2X", "alg": "RS256"]
        let payload: JSONObject = ["iss": "https://appleid.apple.com", "iat": 1_700_000_000, "email_verified": true]
        let compact = try JWS.sign(header: header, payload: payload, with: key)
        #expect(compact.hasPrefix(Base64URL.encode(#"{"kid":"Aj3F8kLq2X","alg":"RS256"}"#.utf8) + "."))
        let token = try JWS(compact: compact)
        #expect(token.header == header)
        #expect(token.payload == payload)
        #expect(token.keyID == "Aj3F8kLq2X")
        #expect(Array(compact.utf8.prefix(token.signingInput.count)) == token.signingInput)
        #expect(token.isSigned(by: key.publicKey))
        let other = try RSAPrivateKey.generate()
        #expect(!token.isSigned(by: other.publicKey))
    }

    @Test func es256SignThenDecodeAndVerify() throws {
        let key = try P256PrivateKey.generate()
        let compact = try JWS.sign(
            header: ["alg": "ES256", "kid": "KEY1234567"], payload: ["sub": "com.example.web"], with: key)
        let token = try JWS(compact: compact)
        #expect(token.signature.count == 64)
        #expect(token.isSigned(by: key.publicKey))
    }

    @Test func algorithmInTheHeaderMustMatchTheKeyType() throws {
        let key = try Self.rsa.get()
        let compact = try JWS.sign(header: ["alg": "none"], payload: [:], with: key)
        let token = try JWS(compact: compact)
        #expect(key.publicKey.verifyRS256(signature: token.signature, message: token.signingInput))
        #expect(!token.isSigned(by: key.publicKey), "alg \"none\" must not verify as RS256")
    }

    @Test func tamperedPayloadFailsVerification() throws {
        let key = try Self.rsa.get()
        let compact = try JWS.sign(header: ["alg": "RS256"], payload: ["sub": "alice"], with: key)
        let parts = compact.split(separator: ".")
        let forged = "\(parts[0]).\(Base64URL.encode(#"{"sub":"bob"}"#.utf8)).\(parts[2])"
        #expect(!(try JWS(compact: forged)).isSigned(by: key.publicKey))
    }

    @Test(arguments: [
        ("a.b", "expected 3 dot-separated parts, found 2"),
        ("a.b.c.d", "expected 3 dot-separated parts, found 4"),
        ("", "expected 3 dot-separated parts, found 1"),
        (".e30.", "header is empty"),
        ("e30..", "payload is empty"),
        ("e3=0.e30.", "header is not valid base64url"),
        ("e30.e30.a+b", "signature is not valid base64url"),
        ("WzFd.e30.", "header is not a JSON object"),  // [1]
        ("e30.InMi.", "payload is not a JSON object"),  // "s"
        (
            "e30.eyJhIjox.",
            "payload is not valid JSON: JSON error at byte 6: unexpected end of input, expected ',' or '}' in an object"
        ),
    ])
    func decodeErrorsSayWhatIsWrong(compact: String, message: String) {
        let error = joseError { () throws(JOSEError) in try JWS(compact: compact) }
        #expect(error?.kind == .malformedToken)
        #expect(error?.message == message)
    }

    @Test func duplicateClaimsAreRejected() {
        let payload = Base64URL.encode(#"{"sub":"a","sub":"b"}"#.utf8)
        let error = joseError { () throws(JOSEError) in try JWS(compact: "e30.\(payload).") }
        #expect(error?.message.contains("duplicate object key") == true)
    }

    @Test func oversizedTokensAreRejectedBeforeDecoding() {
        let big = "e30." + String(repeating: "A", count: JWS.maximumLength) + ".x"
        let error = joseError { () throws(JOSEError) in try JWS(compact: big) }
        #expect(error?.message == "token is \(JWS.maximumLength + 6) bytes; the limit is 16384")
    }

    @Test func emptySignatureDecodes() throws {
        let token = try JWS(compact: "e30.e30.")
        #expect(token.signature.isEmpty)
        #expect(token.header.isEmpty)
        #expect(token.signingInput == Array("e30.e30".utf8))
    }
}

@Suite struct JWKSTests {
    @Test func serializesKeysInApplesFieldOrder() {
        let jwks = JWKS(keys: [JWK(kid: "A", n: "nA", e: "AQAB"), JWK(kid: "B", n: "nB", e: "AQAB")])
        let expected =
            #"{"keys":[{"kty":"RSA","kid":"A","use":"sig","alg":"RS256","n":"nA","e":"AQAB"},"#
            + #"{"kty":"RSA","kid":"B","use":"sig","alg":"RS256","n":"nB","e":"AQAB"}]}"#
        #expect(String(decoding: jwks.serialized(), as: UTF8.self) == expected)
    }

    @Test func parsesWhatItSerializes() throws {
        let key = try RSAPrivateKey(pem: PEMFixtures.rsaPKCS1)
        let jwks = JWKS(keys: [key.publicKey.jwk(kid: "Aj3F8kLq2X"), JWK(kid: "Pb7Yt1ZcQ9", n: "x", e: "AQAB")])
        let parsed = try JWKS(json: JSONValue.parse(jwks.serialized()))
        #expect(parsed == jwks)
        let jwk = try #require(parsed.key(withID: "Aj3F8kLq2X"))
        #expect(try RSAPublicKey(jwk: jwk).modulus == key.publicKey.modulus)
        #expect(parsed.key(withID: "nope") == nil)
    }

    @Test func rejectsMalformedSets() throws {
        #expect(
            joseError { () throws(JOSEError) in try JWKS(json: ["keys": 1]) }?.message == "JWKS has no \"keys\" array")
        #expect(
            joseError { () throws(JOSEError) in try JWKS(json: ["keys": [1]]) }?.message == "JWKS key is not an object")
        let missing: JSONValue = ["keys": [["kty": "RSA", "kid": "k", "use": "sig", "alg": "RS256", "n": "x"]]]
        #expect(
            joseError { () throws(JOSEError) in try JWKS(json: missing) }?.message
                == "JWK member \"e\" is missing or not a string")
    }
}
