import COpenSSL
import JOSE

/// A client-side TLS configuration (OpenSSL `SSL_CTX`): TLS 1.2 and 1.3, the peer's certificate chain
/// verified against the system's trust store plus any CA certificates given (e.g. the mock's local CA,
/// `siwa-mock ca`). Each connection gets a ``TLSSession`` made with ``TLSSession/init(client:serverName:)``.
package final class TLSClientContext: @unchecked Sendable {
    // @unchecked: the SSL_CTX is fully configured in `init` and only read afterwards (`SSL_new`).
    let context: OpaquePointer

    /// - Parameter trustedCertificatesPEM: CA certificates trusted besides the system's.
    /// - Throws: `TLSError` (`.invalidCredentials`) when the PEM holds no usable certificate.
    package init(trustedCertificatesPEM: String? = nil) throws(TLSError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw OpenSSLErrors.failure(.internalFailure, "SSL_CTX_new failed")
        }
        self.context = context
        guard SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil) == 1 else {
            throw OpenSSLErrors.failure(.internalFailure, "cannot configure TLS versions")
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        _ = SSL_CTX_set_default_verify_paths(context)
        _ = OpenSSLErrors.drain()
        if let pem = trustedCertificatesPEM {
            let certificates = try X509Certificate.readAll(pem: pem)
            guard !certificates.isEmpty else {
                throw TLSError(.invalidCredentials, "the CA file holds no PEM certificate")
            }
            let store = SSL_CTX_get_cert_store(context)
            for certificate in certificates where X509_STORE_add_cert(store, certificate.pointer) != 1 {
                throw OpenSSLErrors.failure(.invalidCredentials, "a CA certificate cannot be trusted")
            }
        }
    }

    deinit { SSL_CTX_free(context) }
}
