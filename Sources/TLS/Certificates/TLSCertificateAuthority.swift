import COpenSSL
import JOSE

/// A local certificate authority that issues server certificates, so a test environment that trusts it
/// accepts the mock as `appleid.apple.com`. Keys are P-256 (generation is instant).
package struct TLSCertificateAuthority: Sendable {
    package let certificatePEM: String
    package let privateKeyPEM: String

    /// Uses an existing CA.
    /// - Throws: `TLSError` (`.invalidCredentials`) when the PEMs do not parse or the key is not the certificate's.
    package init(certificatePEM: String, privateKeyPEM: String) throws(TLSError) {
        let certificate = try X509Certificate.read(pem: certificatePEM)
        let key = try EVPKey.readTLSPrivateKey(pem: privateKeyPEM)
        guard X509_check_private_key(certificate.pointer, key.pointer) == 1 else {
            _ = OpenSSLErrors.drain()
            throw TLSError(.invalidCredentials, "the CA key does not match the CA certificate")
        }
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }

    private init(trusted certificatePEM: String, privateKeyPEM: String) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// Creates a new self-signed CA (basicConstraints CA:TRUE, pathlen 0, keyCertSign).
    package static func generate(commonName: String = "siwa-mock local CA", validDays: Int = 3650) throws(TLSError)
        -> TLSCertificateAuthority
    {
        let key = try EVPKey.generateTLSP256()
        let builder = try CertificateBuilder(subjectKey: key, commonName: commonName, validDays: validDays)
        try builder.setIssuer(nil)
        try builder.add(NID_basic_constraints, "critical,CA:TRUE,pathlen:0")
        try builder.add(NID_key_usage, "critical,keyCertSign,cRLSign")
        try builder.add(NID_subject_key_identifier, "hash")
        let certificate = try builder.sign(with: key)
        return TLSCertificateAuthority(trusted: certificate.pem(), privateKeyPEM: key.privateKeyPEM())
    }

    /// Issues a server certificate (serverAuth) whose subjectAltName lists `names` (DNS names or IP
    /// addresses), with a fresh P-256 key.
    package func issueServerCertificate(for names: [String], validDays: Int = 397) throws(TLSError) -> TLSCredentials {
        guard let first = names.first else { throw TLSError(.invalidCredentials, "a server certificate needs a name") }
        for name in names where name.isEmpty || name.contains(",") || name.utf8.count > 253 {
            throw TLSError(.invalidCredentials, "'\(name)' is not a DNS name or IP address")
        }
        let caCertificate = try X509Certificate.read(pem: certificatePEM)
        let caKey = try EVPKey.readTLSPrivateKey(pem: privateKeyPEM)
        let key = try EVPKey.generateTLSP256()
        let builder = try CertificateBuilder(subjectKey: key, commonName: first, validDays: validDays)
        try builder.setIssuer(caCertificate)
        let alternativeNames = names.map { IPAddressText.isIPAddress($0) ? "IP:\($0)" : "DNS:\($0)" }
        try builder.add(NID_basic_constraints, "critical,CA:FALSE")
        try builder.add(NID_key_usage, "critical,digitalSignature")
        try builder.add(NID_ext_key_usage, "serverAuth")
        try builder.add(NID_subject_alt_name, alternativeNames.joined(separator: ","))
        try builder.add(NID_subject_key_identifier, "hash")
        try builder.add(NID_authority_key_identifier, "keyid:always")
        let certificate = try builder.sign(with: caKey)
        return TLSCredentials(certificateChainPEM: certificate.pem(), privateKeyPEM: key.privateKeyPEM())
    }

    /// Whether `leafPEM` was signed by this CA, covers every name and stays valid for `seconds` more —
    /// that is, whether a stored certificate can be reused instead of issuing a new one.
    package func canReuse(_ leafPEM: String, covering names: [String], forAnother seconds: Int) -> Bool {
        guard let leaf = try? X509Certificate.read(pem: leafPEM),
            let caKey = try? EVPKey.readTLSPrivateKey(pem: privateKeyPEM)
        else { return false }
        return leaf.isSigned(by: caKey) && leaf.isValid(forAnother: seconds) && names.allSatisfy(leaf.covers)
    }

    /// Whether the CA certificate stays valid for `seconds` more.
    package func isValid(forAnother seconds: Int) -> Bool {
        (try? X509Certificate.read(pem: certificatePEM))?.isValid(forAnother: seconds) ?? false
    }
}

/// A certificate chain and its key, as PEM.
package struct TLSCredentials: Sendable, Equatable {
    package var certificateChainPEM: String
    package var privateKeyPEM: String

    package init(certificateChainPEM: String, privateKeyPEM: String) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
    }
}
