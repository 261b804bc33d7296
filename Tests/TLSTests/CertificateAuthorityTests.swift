import Foundation
import TLS
import Testing

/// The local CA and the server certificates it issues, checked with OpenSSL's own command-line verifier.
@Suite struct CertificateAuthorityTests {
    static let names = ["appleid.apple.com", "localhost", "127.0.0.1", "::1"]

    @Test func generatedCAIsASelfSignedCACertificate() throws {
        let ca = try TLSCertificateAuthority.generate()
        let text = try OpenSSLCLI.run(["x509", "-noout", "-text"], input: ca.certificatePEM)
        #expect(text.contains("CA:TRUE"))
        #expect(text.contains("Certificate Sign"))
        #expect(text.contains("Subject: CN = siwa-mock local CA"))
        #expect(text.contains("Issuer: CN = siwa-mock local CA"))
        #expect(text.contains("prime256v1"))
        #expect(ca.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test func issuedCertificateVerifiesAgainstTheCAForEveryName() throws {
        let ca = try TLSCertificateAuthority.generate()
        let leaf = try ca.issueServerCertificate(for: Self.names + ["mock.test"])
        let directory = try TemporaryDirectory()
        let caFile = try directory.write("ca.pem", ca.certificatePEM)
        let leafFile = try directory.write("leaf.pem", leaf.certificateChainPEM)
        for name in ["appleid.apple.com", "localhost", "mock.test"] {
            let output = try OpenSSLCLI.run(
                ["verify", "-CAfile", caFile, "-purpose", "sslserver", "-verify_hostname", name, leafFile])
            #expect(output.contains("OK"), "\(name): \(output)")
        }
        let ip = try OpenSSLCLI.run(["verify", "-CAfile", caFile, "-verify_ip", "127.0.0.1", leafFile])
        #expect(ip.contains("OK"))
        #expect(throws: OpenSSLCLI.Failure.self) {
            try OpenSSLCLI.run(["verify", "-CAfile", caFile, "-verify_hostname", "evil.example", leafFile])
        }
        let text = try OpenSSLCLI.run(["x509", "-noout", "-text"], input: leaf.certificateChainPEM)
        #expect(text.contains("CA:FALSE"))
        #expect(text.contains("TLS Web Server Authentication"))
    }

    @Test func certificateFromAnotherCAIsNotTrusted() throws {
        let ca = try TLSCertificateAuthority.generate()
        let other = try TLSCertificateAuthority.generate()
        let leaf = try other.issueServerCertificate(for: Self.names)
        let directory = try TemporaryDirectory()
        let caFile = try directory.write("ca.pem", ca.certificatePEM)
        let leafFile = try directory.write("leaf.pem", leaf.certificateChainPEM)
        #expect(throws: OpenSSLCLI.Failure.self) { try OpenSSLCLI.run(["verify", "-CAfile", caFile, leafFile]) }
        #expect(!ca.canReuse(leaf.certificateChainPEM, covering: Self.names, forAnother: 0))
    }

    @Test func reuseRequiresEveryNameAndRemainingValidity() throws {
        let ca = try TLSCertificateAuthority.generate()
        let leaf = try ca.issueServerCertificate(for: Self.names, validDays: 397)
        #expect(ca.canReuse(leaf.certificateChainPEM, covering: Self.names, forAnother: 30 * 86_400))
        #expect(!ca.canReuse(leaf.certificateChainPEM, covering: Self.names + ["mock.test"], forAnother: 0))
        #expect(!ca.canReuse(leaf.certificateChainPEM, covering: Self.names, forAnother: 400 * 86_400))
        #expect(!ca.canReuse("not a certificate", covering: Self.names, forAnother: 0))
    }

    @Test func existingCAIsLoadedAndAMismatchedKeyIsRejected() throws {
        let ca = try TLSCertificateAuthority.generate()
        let reloaded = try TLSCertificateAuthority(certificatePEM: ca.certificatePEM, privateKeyPEM: ca.privateKeyPEM)
        #expect(reloaded.certificatePEM == ca.certificatePEM)
        let other = try TLSCertificateAuthority.generate()
        let error = #expect(throws: TLSError.self) {
            try TLSCertificateAuthority(certificatePEM: ca.certificatePEM, privateKeyPEM: other.privateKeyPEM)
        }
        #expect(error?.kind == .invalidCredentials)
        #expect(throws: TLSError.self) {
            try TLSCertificateAuthority(certificatePEM: "garbage", privateKeyPEM: ca.privateKeyPEM)
        }
    }

    @Test func badNamesAreRefused() throws {
        let ca = try TLSCertificateAuthority.generate()
        #expect(throws: TLSError.self) { try ca.issueServerCertificate(for: []) }
        #expect(throws: TLSError.self) { try ca.issueServerCertificate(for: ["a,DNS:evil.example"]) }
    }
}
