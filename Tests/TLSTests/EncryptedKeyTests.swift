import JOSE
import TLS
import Testing

/// TLS and JOSE read private keys with one reader: an encrypted PEM gets the same refusal from both,
/// and OpenSSL never prompts for a password (CI runs this with stdin closed and no terminal).
@Suite struct EncryptedKeyTests {
    @Test func encryptedKeysAreRefusedAlikeByTLSAndJOSE() throws {
        let ca = try TLSCertificateAuthority.generate()
        let leaf = try ca.issueServerCertificate(for: ["localhost"])
        let encrypt = ["pkey", "-aes256", "-passout", "pass:secret"]
        let encryptedLeafKeys = [
            try OpenSSLCLI.run(encrypt, input: leaf.privateKeyPEM),
            try OpenSSLCLI.run(encrypt + ["-traditional"], input: leaf.privateKeyPEM),
        ]
        for encrypted in encryptedLeafKeys {
            #expect(encrypted.contains("ENCRYPTED"))
            let server = #expect(throws: TLSError.self) {
                try TLSServerContext(certificateChainPEM: leaf.certificateChainPEM, privateKeyPEM: encrypted)
            }
            #expect(server?.kind == .invalidCredentials)
            #expect(server?.message.hasPrefix("the PEM private key is encrypted;") == true)
            let jose = #expect(throws: JOSEError.self) { try P256PrivateKey(pem: encrypted) }
            #expect(jose?.kind == .invalidKey)
            #expect(jose?.message == server?.message)
        }
        let encryptedCAKey = try OpenSSLCLI.run(encrypt, input: ca.privateKeyPEM)
        let authority = #expect(throws: TLSError.self) {
            try TLSCertificateAuthority(certificatePEM: ca.certificatePEM, privateKeyPEM: encryptedCAKey)
        }
        #expect(authority?.message.hasPrefix("the PEM private key is encrypted;") == true)
    }
}
