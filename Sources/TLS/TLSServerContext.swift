import COpenSSL
import JOSE

/// A server-side TLS configuration (OpenSSL `SSL_CTX`): one certificate chain and key, TLS 1.2 and 1.3,
/// forward-secret AEAD cipher suites only. Shared by every event loop; each connection gets a ``TLSSession``.
package final class TLSServerContext: @unchecked Sendable {
    // @unchecked: the SSL_CTX is fully configured in `init` and only read afterwards (`SSL_new`),
    // which OpenSSL documents as safe from several threads.
    let context: OpaquePointer

    /// TLS 1.2 suites (TLS 1.3 uses OpenSSL's defaults, all AEAD): ECDHE with AES-GCM or ChaCha20.
    static let tls12Ciphers = "ECDHE+AESGCM:ECDHE+CHACHA20:!aNULL:!eNULL:!MD5:!DSS:!SHA1"

    /// - Parameters:
    ///   - certificateChainPEM: the leaf certificate first, then any intermediates.
    ///   - privateKeyPEM: the leaf's private key (PKCS#8 or traditional PEM).
    /// - Throws: `TLSError` (`.invalidCredentials`) when the PEMs do not parse or do not match.
    package init(certificateChainPEM: String, privateKeyPEM: String) throws(TLSError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw OpenSSLErrors.failure(.internalFailure, "SSL_CTX_new failed")
        }
        self.context = context
        guard SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil) == 1,
            SSL_CTX_set_cipher_list(context, Self.tls12Ciphers) == 1
        else { throw OpenSSLErrors.failure(.internalFailure, "cannot configure TLS versions and ciphers") }
        // SSL_OP_NO_COMPRESSION (bit 17), SSL_OP_CIPHER_SERVER_PREFERENCE (bit 22), SSL_OP_NO_RENEGOTIATION
        // (bit 30): written out because SSL_OP_BIT is a function-like macro Swift cannot import.
        _ = SSL_CTX_set_options(context, (1 << 17) | (1 << 22) | (1 << 30))
        let leaf = try useChain(certificateChainPEM)
        try useKey(privateKeyPEM, for: leaf)
    }

    deinit { SSL_CTX_free(context) }

    private func useChain(_ pem: String) throws(TLSError) -> X509Certificate {
        let certificates = try X509Certificate.readAll(pem: pem)
        guard let leaf = certificates.first else {
            throw TLSError(.invalidCredentials, "the certificate file holds no PEM certificate")
        }
        guard SSL_CTX_use_certificate(context, leaf.pointer) == 1 else {
            throw OpenSSLErrors.failure(.invalidCredentials, "the certificate cannot be used")
        }
        for intermediate in certificates.dropFirst() {
            // SSL_CTX_add1_chain_cert is a macro over SSL_CTX_ctrl(…, SSL_CTRL_CHAIN_CERT, 1, cert).
            guard SSL_CTX_ctrl(context, SSL_CTRL_CHAIN_CERT, 1, UnsafeMutableRawPointer(intermediate.pointer)) == 1
            else { throw OpenSSLErrors.failure(.invalidCredentials, "an intermediate certificate cannot be used") }
        }
        return leaf
    }

    private func useKey(_ pem: String, for leaf: X509Certificate) throws(TLSError) {
        let key = try EVPKey.readTLSPrivateKey(pem: pem)
        guard X509_check_private_key(leaf.pointer, key.pointer) == 1 else {
            _ = OpenSSLErrors.drain()
            throw TLSError(.invalidCredentials, "the private key does not match the certificate")
        }
        guard SSL_CTX_use_PrivateKey(context, key.pointer) == 1 else {
            throw OpenSSLErrors.failure(.invalidCredentials, "the private key cannot be used")
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            _ = OpenSSLErrors.drain()
            throw TLSError(.invalidCredentials, "the private key does not match the certificate")
        }
    }
}
