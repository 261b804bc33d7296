import JOSE
import JSON
import Testing

@Suite struct RSAKeyTests {
    /// One generated key shared by the tests below (generation takes 70–470 ms).
    static let generated = Result { try RSAPrivateKey.generate() }

    @Test func generatedKeyExportsApplesJWKShape() throws {
        let key = try Self.generated.get()
        let jwk = key.publicKey.jwk(kid: "Aj3F8kLq2X")
        #expect(key.publicKey.modulus.count == 256)
        #expect(jwk.n.count == 342)
        #expect(jwk.e == "AQAB")
        let text = String(decoding: jwk.json.serialized(), as: UTF8.self)
        #expect(text.hasPrefix(#"{"kty":"RSA","kid":"Aj3F8kLq2X","use":"sig","alg":"RS256","n":""#))
        #expect(text.hasSuffix(#"","e":"AQAB"}"#))
    }

    @Test func signaturesVerifyAndTamperingFails() throws {
        let key = try Self.generated.get()
        let message = Array("header.payload".utf8)
        let signature = try key.signRS256(message)
        #expect(signature.count == 256)
        #expect(try key.signRS256(message) == signature, "PKCS#1 v1.5 is deterministic")
        #expect(key.publicKey.verifyRS256(signature: signature, message: message))
        #expect(!key.publicKey.verifyRS256(signature: flippingBit(signature, at: 0), message: message))
        #expect(!key.publicKey.verifyRS256(signature: flippingBit(signature, at: 255), message: message))
        #expect(!key.publicKey.verifyRS256(signature: Array(signature.dropLast()), message: message))
        #expect(!key.publicKey.verifyRS256(signature: [], message: message))
        #expect(!key.publicKey.verifyRS256(signature: signature, message: Array("header.payloaD".utf8)))
    }

    @Test func pkcs8PEMRoundTrips() throws {
        let key = try Self.generated.get()
        let pem = key.pemPKCS8()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(pem.hasSuffix("-----END PRIVATE KEY-----\n"))
        let reloaded = try RSAPrivateKey(pem: pem)
        #expect(reloaded.publicKey.modulus == key.publicKey.modulus)
        #expect(reloaded.pemPKCS8() == pem)
        let message = Array("m".utf8)
        #expect(key.publicKey.verifyRS256(signature: try reloaded.signRS256(message), message: message))
    }

    @Test func loadsPKCS1AndSPKIPEM() throws {
        let key = try RSAPrivateKey(pem: PEMFixtures.rsaPKCS1)
        let publicKey = try RSAPublicKey(pem: PEMFixtures.rsaPublic)
        #expect(publicKey.modulus == key.publicKey.modulus)
        #expect(publicKey.exponent == [1, 0, 1])
        #expect(key.publicKey.pem() == PEMFixtures.rsaPublic + "\n")
        #expect(key.pemPKCS8().hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let message = Array("hello".utf8)
        #expect(publicKey.verifyRS256(signature: try key.signRS256(message), message: message))
    }

    @Test func publicKeyFromJWKMatches() throws {
        let key = try RSAPrivateKey(pem: PEMFixtures.rsaPKCS1)
        let jwk = key.publicKey.jwk(kid: "kid1")
        let rebuilt = try RSAPublicKey(jwk: jwk)
        #expect(rebuilt.modulus == key.publicKey.modulus)
        // A leading zero byte on the modulus (some encoders add one) is tolerated.
        let padded = try RSAPublicKey(modulus: [0] + key.publicKey.modulus, exponent: [0, 1, 0, 1])
        #expect(padded.jwk(kid: "kid1") == jwk)
    }

    @Test func rejectsWrongKeyTypesWithClearErrors() {
        let ec = joseError { () throws(JOSEError) in try RSAPrivateKey(pem: PEMFixtures.p256SEC1) }
        #expect(ec?.kind == .invalidKey)
        #expect(ec?.message == "expected an RSA key, found key type EC")
        let ed = joseError { () throws(JOSEError) in try RSAPrivateKey(pem: PEMFixtures.ed25519) }
        #expect(ed?.message.contains("ED25519") == true)
        let small = joseError { () throws(JOSEError) in try RSAPrivateKey(pem: PEMFixtures.rsa1024) }
        #expect(small?.message == "RSA key has 1024 bits; RS256 requires at least 2048")
        let publicEC = joseError { () throws(JOSEError) in try RSAPublicKey(pem: PEMFixtures.p256Public) }
        #expect(publicEC?.kind == .invalidKey)
    }

    @Test func rejectsGarbageInput() {
        #expect(joseError { () throws(JOSEError) in try RSAPrivateKey(pem: "") }?.kind == .invalidKey)
        #expect(
            joseError { () throws(JOSEError) in
                try RSAPrivateKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
            }?.kind == .invalidKey)
        #expect(
            joseError { () throws(JOSEError) in try RSAPrivateKey(pem: PEMFixtures.rsaPublic) }?.kind == .invalidKey)
        #expect(joseError { () throws(JOSEError) in try RSAPublicKey(pem: PEMFixtures.rsaPKCS1) }?.kind == .invalidKey)
        #expect(joseError { () throws(JOSEError) in try RSAPublicKey(modulus: [0xFF], exponent: [1, 0, 1]) } != nil)
        #expect(joseError { () throws(JOSEError) in try RSAPublicKey(modulus: [], exponent: []) } != nil)
        #expect(joseError { () throws(JOSEError) in try RSAPrivateKey.generate(bits: 1024) }?.kind == .invalidKey)
        let badJWK = JWK(kid: "k", n: "not base64!", e: "AQAB")
        #expect(joseError { () throws(JOSEError) in try RSAPublicKey(jwk: badJWK) }?.kind == .invalidKey)
    }
}

@Suite struct ConcurrentSigningTests {
    @Test func oneKeySignsAndVerifiesFromManyTasks() async throws {
        let rsa = try RSAPrivateKey(pem: PEMFixtures.rsaPKCS1)
        let ec = try P256PrivateKey(pem: PEMFixtures.p256SEC1)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<32 {
                group.addTask {
                    let message = Array("message \(index)".utf8)
                    let rsaOK = rsa.publicKey.verifyRS256(signature: try rsa.signRS256(message), message: message)
                    let ecOK = ec.publicKey.verifyES256(signature: try ec.signES256(message), message: message)
                    return rsaOK && ecOK
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 32)
        #expect(results.allSatisfy { $0 })
    }
}
