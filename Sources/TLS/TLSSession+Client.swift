import COpenSSL
import JOSE

extension TLSSession {
    /// A client session for `serverName` (a host name, sent as SNI, or an IP address): the server's
    /// certificate must chain to a CA `context` trusts and name `serverName`.
    package convenience init(client context: TLSClientContext, serverName: String) throws(TLSError) {
        try self.init(ssl: SSL_new(context.context), client: true)
        let isAddress = serverName.contains(":") || serverName.allSatisfy { $0.isNumber || $0 == "." }
        let named: Bool
        if isAddress {
            named = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), serverName) == 1
        } else {
            // SSL_set_tlsext_host_name is a macro over SSL_ctrl(…, SSL_CTRL_SET_TLSEXT_HOSTNAME, …).
            let sni = serverName.withCString { name in
                SSL_ctrl(
                    ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, Int(TLSEXT_NAMETYPE_host_name),
                    UnsafeMutableRawPointer(mutating: name))
            }
            named = sni == 1 && SSL_set1_host(ssl, serverName) == 1
        }
        guard named else { throw OpenSSLErrors.failure(.internalFailure, "cannot set the server name \(serverName)") }
    }

    /// Advances the client handshake with the ciphertext fed so far: true once it finished, false while
    /// it waits for more input (send `takeOutput` first).
    /// - Throws: `TLSError` `.protocolFailure`, naming the certificate problem when verification failed.
    package func handshake() throws(TLSError) -> Bool {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 { return true }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return false
        default:
            let verify = SSL_get_verify_result(ssl)
            if verify != Int(X509_V_OK) {
                _ = OpenSSLErrors.drain()
                let reason = X509_verify_cert_error_string(verify).map { String(cString: $0) } ?? "code \(verify)"
                throw TLSError(.protocolFailure, "the server's certificate is not trusted: \(reason)")
            }
            throw classifyFailure()
        }
    }
}
