import COpenSSL
import JOSE

/// One TLS connection, server or client side (OpenSSL `SSL` over two memory BIOs).
///
/// The session never touches a socket: the owner feeds it the ciphertext it read (`feed`), takes
/// plaintext out (`read`), hands it plaintext to send (`write`) and moves the resulting ciphertext to the
/// socket itself (`takeOutput`). So the event loop keeps every syscall, and non-blocking I/O needs no
/// special cases: OpenSSL only ever waits for more input.
package final class TLSSession {
    // Not Sendable: owned by one connection on one event-loop thread.
    let ssl: OpaquePointer
    private let input: OpaquePointer
    private let output: OpaquePointer

    /// What `read(into:)` produced.
    package enum ReadResult: Equatable {
        /// This many plaintext bytes are in the buffer.
        case bytes(Int)
        /// All fed ciphertext is consumed; feed more.
        case needMoreData
        /// The peer sent close_notify.
        case closed
        /// The handshake or a record failed; send `takeOutput` (an alert) and close.
        case failed(TLSError)
    }

    package convenience init(context: TLSServerContext) throws(TLSError) {
        try self.init(ssl: SSL_new(context.context), client: false)
    }

    /// Wraps a fresh `SSL` (nil: `SSL_new` failed) in accept (server) or connect (client) state.
    init(ssl: OpaquePointer?, client: Bool) throws(TLSError) {
        guard let ssl else {
            throw OpenSSLErrors.failure(.internalFailure, "SSL_new failed")
        }
        guard let input = BIO_new(BIO_s_mem()), let output = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw OpenSSLErrors.failure(.internalFailure, "BIO_new failed")
        }
        SSL_set_bio(ssl, input, output)  // the SSL now owns both BIOs
        if client { SSL_set_connect_state(ssl) } else { SSL_set_accept_state(ssl) }
        self.ssl = ssl
        self.input = input
        self.output = output
    }

    deinit { SSL_free(ssl) }

    /// True once the handshake finished.
    package var isHandshakeComplete: Bool { SSL_is_init_finished(ssl) == 1 }

    /// The negotiated protocol (`TLSv1.3`), or nil before the handshake finished.
    package var protocolVersion: String? {
        guard isHandshakeComplete, let name = SSL_get_version(ssl) else { return nil }
        return String(cString: name)
    }

    /// Hands ciphertext read from the socket to OpenSSL.
    package func feed(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        // A memory BIO grows as needed; a write fails only when allocation fails.
        _ = BIO_write(input, bytes.baseAddress, Int32(clamping: bytes.count))
    }

    /// Decrypts into `buffer` (advancing the handshake first when needed).
    package func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        ERR_clear_error()
        let count = SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
        if count > 0 { return .bytes(Int(count)) }
        switch SSL_get_error(ssl, count) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return .needMoreData
        case SSL_ERROR_ZERO_RETURN:
            return .closed
        default:
            return .failed(classifyFailure())
        }
    }

    /// Encrypts `plaintext`; the records wait in `takeOutput`.
    package func write(_ plaintext: [UInt8]) throws(TLSError) {
        var offset = 0
        while offset < plaintext.count {
            ERR_clear_error()
            let chunk = min(plaintext.count - offset, 1 << 30)
            let written = plaintext.withUnsafeBytes { bytes in SSL_write(ssl, bytes.baseAddress! + offset, Int32(chunk))
            }
            guard written > 0 else { throw OpenSSLErrors.failure(.internalFailure, "SSL_write failed") }
            offset += Int(written)
        }
    }

    /// Queues a close_notify alert (RFC 8446 §6.1) for `takeOutput`.
    package func close() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    /// Appends the ciphertext OpenSSL produced (handshake messages, records, alerts) to `bytes`.
    package func takeOutput(into bytes: inout [UInt8]) {
        let pending = Int(BIO_ctrl_pending(output))
        guard pending > 0 else { return }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: pending))
        let read = bytes.withUnsafeMutableBytes { raw in
            BIO_read(output, raw.baseAddress! + start, Int32(clamping: pending))
        }
        bytes.removeLast(pending - Int(max(0, read)))
    }

    func classifyFailure() -> TLSError {
        let code = ERR_peek_error()
        let detail = OpenSSLErrors.drain()
        if ERR_GET_LIB(code) == ERR_LIB_SSL && ERR_GET_REASON(code) == SSL_R_HTTP_REQUEST {
            return TLSError(.plainHTTP, "plain HTTP request on the TLS port")
        }
        let stage = isHandshakeComplete ? "TLS error" : "TLS handshake failed"
        return TLSError(.protocolFailure, detail.isEmpty ? stage : "\(stage): \(detail)")
    }
}
