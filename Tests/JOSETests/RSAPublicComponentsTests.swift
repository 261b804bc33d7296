import JOSE
import Testing

/// The Swift DER reader that publishes the built-in keys' moduli before OpenSSL parses them must read
/// exactly what OpenSSL reads, and nothing from what is not an unencrypted RSA private key.
@Suite struct RSAPublicComponentsTests {
    @Test func readsTheSameModulusAndExponentAsOpenSSL() throws {
        let generated = try RSAPrivateKey.generate()
        for pem in [PEMFixtures.rsaPKCS1, generated.pemPKCS8()] {
            let openSSL = try RSAPrivateKey(pem: pem).publicKey
            let swift = try #require(RSAPublicComponents.read(privateKeyPEM: pem))
            #expect(swift.modulus == openSSL.modulus)
            #expect(swift.exponent == openSSL.exponent)
        }
    }

    @Test func refusesWhatIsNotAnUnencryptedRSAPrivateKey() throws {
        let generated = try RSAPrivateKey.generate().pemPKCS8()
        let truncated = String(generated.dropLast(80)) + "\n-----END PRIVATE KEY-----\n"
        for pem in [
            PEMFixtures.rsaPublic, PEMFixtures.p256SEC1, PEMFixtures.p384, PEMFixtures.ed25519,
            PEMFixtures.p256EncryptedPKCS8, truncated, "",
            "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----",
        ] {
            #expect(RSAPublicComponents.read(privateKeyPEM: pem) == nil, "\(pem.prefix(40))")
        }
    }
}
