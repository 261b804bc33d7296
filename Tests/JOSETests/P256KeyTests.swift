import JOSE
import Testing

@Suite struct P256KeyTests {
    @Test func generatedKeySignsAndVerifies() throws {
        let key = try P256PrivateKey.generate()
        let message = Array("client.secret".utf8)
        for _ in 0..<20 {  // r or s with leading zero bytes must still give 64 bytes
            let signature = try key.signES256(message)
            #expect(signature.count == 64)
            #expect(key.publicKey.verifyES256(signature: signature, message: message))
        }
        let signature = try key.signES256(message)
        #expect(!key.publicKey.verifyES256(signature: flippingBit(signature, at: 63), message: message))
        #expect(!key.publicKey.verifyES256(signature: signature, message: Array("client.secreT".utf8)))
        #expect(!key.publicKey.verifyES256(signature: [UInt8](repeating: 0, count: 64), message: message))
        #expect(!key.publicKey.verifyES256(signature: [], message: message))
        let other = try P256PrivateKey.generate()
        #expect(!other.publicKey.verifyES256(signature: signature, message: message))
    }

    @Test func derSignaturesAreRejected() throws {
        let key = try P256PrivateKey.generate()
        let message = Array("m".utf8)
        let raw = try key.signES256(message)
        let der = derEncode(r: Array(raw.prefix(32)), s: Array(raw.suffix(32)))
        #expect(der.first == 0x30)
        #expect(der.count != 64)
        #expect(!key.publicKey.verifyES256(signature: der, message: message))
        #expect(!key.publicKey.verifyES256(signature: raw + [0], message: message))
        #expect(!key.publicKey.verifyES256(signature: Array(raw.dropLast()), message: message))
    }

    @Test func pkcs8AndSPKIPEMRoundTrip() throws {
        let key = try P256PrivateKey.generate()
        let pem = key.pemPKCS8()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let reloaded = try P256PrivateKey(pem: pem)
        #expect(reloaded.publicKey.x == key.publicKey.x && reloaded.publicKey.y == key.publicKey.y)
        let publicPEM = key.publicKey.pem()
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        let publicKey = try P256PublicKey(pem: publicPEM)
        #expect(publicKey.pem() == publicPEM)
        let message = Array("m".utf8)
        #expect(publicKey.verifyES256(signature: try reloaded.signES256(message), message: message))
    }

    @Test func loadsSEC1AndMatchingSPKI() throws {
        let key = try P256PrivateKey(pem: PEMFixtures.p256SEC1)
        let publicKey = try P256PublicKey(pem: PEMFixtures.p256Public)
        #expect(publicKey.x == key.publicKey.x)
        let fromCoordinates = try P256PublicKey(x: key.publicKey.x, y: key.publicKey.y)
        #expect(fromCoordinates.pem() == PEMFixtures.p256Public + "\n")
        let message = Array("m".utf8)
        #expect(fromCoordinates.verifyES256(signature: try key.signES256(message), message: message))
    }

    @Test func rejectsOtherCurvesAndKeyTypes() {
        let p384 = joseError { () throws(JOSEError) in try P256PrivateKey(pem: PEMFixtures.p384) }
        #expect(p384?.kind == .invalidKey)
        #expect(p384?.message == "expected curve P-256 (prime256v1), found secp384r1")
        let p384Public = joseError { () throws(JOSEError) in try P256PublicKey(pem: PEMFixtures.p384Public) }
        #expect(p384Public?.message == "expected curve P-256 (prime256v1), found secp384r1")
        let rsa = joseError { () throws(JOSEError) in try P256PrivateKey(pem: PEMFixtures.rsaPKCS1) }
        #expect(rsa?.message == "expected an EC P-256 key, found key type RSA")
        let rsaPublic = joseError { () throws(JOSEError) in try P256PublicKey(pem: PEMFixtures.rsaPublic) }
        #expect(rsaPublic?.kind == .invalidKey)
        let ed = joseError { () throws(JOSEError) in try P256PrivateKey(pem: PEMFixtures.ed25519) }
        #expect(ed?.kind == .invalidKey)
        #expect(joseError { () throws(JOSEError) in try P256PrivateKey(pem: "junk") }?.kind == .invalidKey)
    }

    @Test func refusesEncryptedKeysWithoutPrompting() {
        // The password callback refuses: no prompt on the terminal (run with stdin closed and no tty).
        let expected =
            "the PEM private key is encrypted; siwa-mock reads unencrypted keys only"
            + " (decrypt it with: openssl pkey -in key.pem -out key-unencrypted.pem)"
        for pem in [PEMFixtures.p256EncryptedPKCS8, PEMFixtures.p256EncryptedSEC1] {
            let p256 = joseError { () throws(JOSEError) in try P256PrivateKey(pem: pem) }
            #expect(p256?.kind == .invalidKey)
            #expect(p256?.message == expected)
            let rsa = joseError { () throws(JOSEError) in try RSAPrivateKey(pem: pem) }
            #expect(rsa?.message == expected)
        }
    }

    @Test func rejectsPointsOffTheCurveAndBadSizes() throws {
        let key = try P256PrivateKey(pem: PEMFixtures.p256SEC1)
        let offCurve = joseError { () throws(JOSEError) in
            try P256PublicKey(x: key.publicKey.x, y: flippingBit(key.publicKey.y, at: 31))
        }
        #expect(offCurve?.message == "(x, y) is not a point on P-256")
        let short = joseError { () throws(JOSEError) in try P256PublicKey(x: [1, 2], y: key.publicKey.y) }
        #expect(short?.kind == .invalidKey)
    }

    /// A minimal DER `SEQUENCE { INTEGER r, INTEGER s }` for the rejection test.
    private func derEncode(r: [UInt8], s: [UInt8]) -> [UInt8] {
        func integer(_ bytes: [UInt8]) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty || value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(r) + integer(s)
        return [0x30, UInt8(body.count)] + body
    }
}
