import JOSE
import JSON
import Testing

/// Known-answer tests from RFC 7515 Appendix A.2 (RS256) and A.3 (ES256).
@Suite struct RFC7515Tests {
    typealias V = RFC7515Vectors

    static func rsaKey() throws -> RSAPrivateKey {
        try RSAPrivateKey(
            n: decoded(V.RSAKey.n), e: decoded(V.RSAKey.e), d: decoded(V.RSAKey.d), p: decoded(V.RSAKey.p),
            q: decoded(V.RSAKey.q), dp: decoded(V.RSAKey.dp), dq: decoded(V.RSAKey.dq), qi: decoded(V.RSAKey.qi))
    }

    @Test func a2SigningReproducesThePublishedSignature() throws {
        let key = try Self.rsaKey()
        let signingInput = Array("\(V.rs256Header).\(V.payload)".utf8)
        let signature = try key.signRS256(signingInput)
        #expect(Base64URL.encode(signature) == V.rs256Signature)
    }

    @Test func a2PublishedSignatureVerifiesWithThePublicJWK() throws {
        let publicKey = try RSAPublicKey(modulus: decoded(V.RSAKey.n), exponent: decoded(V.RSAKey.e))
        let signingInput = Array("\(V.rs256Header).\(V.payload)".utf8)
        let signature = try decoded(V.rs256Signature)
        #expect(publicKey.verifyRS256(signature: signature, message: signingInput))
        #expect(!publicKey.verifyRS256(signature: flippingBit(signature, at: 100), message: signingInput))
        #expect(!publicKey.verifyRS256(signature: signature, message: flippingBit(signingInput, at: 20)))
        #expect(publicKey.jwk(kid: "k").n == V.RSAKey.n)
        #expect(publicKey.jwk(kid: "k").e == "AQAB")
    }

    @Test func a2CompactTokenDecodesAndVerifies() throws {
        let token = try JWS(compact: "\(V.rs256Header).\(V.payload).\(V.rs256Signature)")
        #expect(token.algorithm == "RS256")
        #expect(token.payload["iss"] == "joe")
        #expect(token.payload["exp"] == .int(1_300_819_380))
        #expect(token.payload["http://example.com/is_root"] == true)
        #expect(token.isSigned(by: try Self.rsaKey().publicKey))
    }

    @Test func a3PublishedSignatureVerifies() throws {
        let publicKey = try P256PublicKey(x: decoded(V.P256Key.x), y: decoded(V.P256Key.y))
        let signingInput = Array("\(V.es256Header).\(V.payload)".utf8)
        let signature = try decoded(V.es256Signature)
        #expect(signature.count == 64)
        #expect(publicKey.verifyES256(signature: signature, message: signingInput))
        #expect(!publicKey.verifyES256(signature: flippingBit(signature, at: 40), message: signingInput))
        let token = try JWS(compact: "\(V.es256Header).\(V.payload).\(V.es256Signature)")
        #expect(token.isSigned(by: publicKey))
    }

    @Test func a3SignAndVerifyRoundTripWithThePublishedKey() throws {
        let key = try P256PrivateKey(d: decoded(V.P256Key.d), x: decoded(V.P256Key.x), y: decoded(V.P256Key.y))
        #expect(Base64URL.encode(key.publicKey.x) == V.P256Key.x)
        #expect(Base64URL.encode(key.publicKey.y) == V.P256Key.y)
        let signingInput = Array("\(V.es256Header).\(V.payload)".utf8)
        let first = try key.signES256(signingInput)
        let second = try key.signES256(signingInput)
        #expect(first.count == 64)
        #expect(first != second, "ECDSA signatures are randomized")
        #expect(key.publicKey.verifyES256(signature: first, message: signingInput))
        #expect(key.publicKey.verifyES256(signature: second, message: signingInput))
    }

    @Test func mismatchedComponentsAreRejected() throws {
        let (n, e, d, p, q) = try (
            decoded(V.RSAKey.n), decoded(V.RSAKey.e), decoded(V.RSAKey.d), decoded(V.RSAKey.p), decoded(V.RSAKey.q)
        )
        let (dp, dq, qi) = try (decoded(V.RSAKey.dp), decoded(V.RSAKey.dq), decoded(V.RSAKey.qi))
        let error = joseError { () throws(JOSEError) in
            try RSAPrivateKey(n: n, e: e, d: flippingBit(d, at: 5), p: p, q: q, dp: dp, dq: dq, qi: qi)
        }
        #expect(error?.kind == .invalidKey)
        let wrongD = flippingBit(try decoded(V.P256Key.d), at: 31)
        let x = try decoded(V.P256Key.x)
        let y = try decoded(V.P256Key.y)
        #expect(joseError { () throws(JOSEError) in try P256PrivateKey(d: wrongD, x: x, y: y) }?.kind == .invalidKey)
    }
}
