import COpenSSL
import JOSE

/// Assembles one X.509 v3 certificate with OpenSSL's X509 APIs.
final class CertificateBuilder {
    let certificate: X509Certificate
    private var issuer: X509Certificate?

    /// A certificate for `subjectKey` named `CN=commonName`, valid from an hour ago for `validDays`,
    /// with a random 127-bit serial number.
    init(subjectKey: EVPKey, commonName: String, validDays: Int) throws(TLSError) {
        guard let pointer = X509_new() else { throw OpenSSLErrors.failure(.internalFailure, "X509_new failed") }
        certificate = X509Certificate(owning: pointer)
        guard let serial = BN_new() else { throw OpenSSLErrors.failure(.internalFailure, "BN_new failed") }
        defer { BN_free(serial) }
        let days = min(max(validDays, 1), 36_500)
        guard X509_set_version(pointer, 2) == 1,
            BN_rand(serial, 127, -1, 0) == 1,
            BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(pointer)) != nil,
            X509_gmtime_adj(X509_getm_notBefore(pointer), -3600) != nil,
            X509_time_adj_ex(X509_getm_notAfter(pointer), Int32(days), 0, nil) != nil,
            X509_set_pubkey(pointer, subjectKey.pointer) == 1,
            let name = X509_get_subject_name(pointer),
            X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0) == 1
        else { throw OpenSSLErrors.failure(.internalFailure, "cannot fill in the certificate") }
    }

    /// Sets the issuer name: `nil` for a self-signed certificate.
    func setIssuer(_ issuer: X509Certificate?) throws(TLSError) {
        self.issuer = issuer
        let name = X509_get_subject_name((issuer ?? certificate).pointer)
        guard X509_set_issuer_name(certificate.pointer, name) == 1 else {
            throw OpenSSLErrors.failure(.internalFailure, "X509_set_issuer_name failed")
        }
    }

    /// Adds one extension in OpenSSL's configuration syntax (`critical,CA:TRUE`).
    func add(_ nid: Int32, _ value: String) throws(TLSError) {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, (issuer ?? certificate).pointer, certificate.pointer, nil, nil, 0)
        guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
            throw OpenSSLErrors.failure(.internalFailure, "cannot build extension \(value)")
        }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(certificate.pointer, ext, -1) == 1 else {
            throw OpenSSLErrors.failure(.internalFailure, "X509_add_ext failed")
        }
    }

    /// Signs with SHA-256 and returns the finished certificate.
    func sign(with key: EVPKey) throws(TLSError) -> X509Certificate {
        guard X509_sign(certificate.pointer, key.pointer, EVP_sha256()) > 0 else {
            throw OpenSSLErrors.failure(.internalFailure, "X509_sign failed")
        }
        return certificate
    }
}
