import COpenSSL

/// The thread-local OpenSSL error queue, turned into text for ``TLSError`` messages.
enum OpenSSLErrorQueue {
    /// Removes every queued error and returns them joined by "; " (empty if none were queued).
    static func drain() -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.joined(separator: "; ")
    }

    /// A ``TLSError`` for a failed OpenSSL call, with the drained queue as detail.
    static func failure(_ kind: TLSError.Kind, _ what: String) -> TLSError {
        let detail = drain()
        return TLSError(kind, detail.isEmpty ? what : "\(what) (\(detail))")
    }
}

/// Memory BIOs for PEM text in and out.
enum PEMBuffer {
    /// Runs `body` with a read-only memory BIO over `text`; the BIO is freed afterwards.
    static func withReading<R>(_ text: String, _ body: (OpaquePointer) throws(TLSError) -> R) throws(TLSError) -> R {
        let bytes = Array(text.utf8)
        guard bytes.count < 1 << 24 else { throw TLSError(.invalidCredentials, "PEM input too large") }
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "BIO_new failed")
        }
        defer { BIO_free(bio) }
        let written = bytes.withUnsafeBytes { BIO_write(bio, $0.baseAddress, Int32($0.count)) }
        guard written == Int32(bytes.count) || bytes.isEmpty else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "BIO_write failed")
        }
        return try body(bio)
    }

    /// Runs `write` against a fresh memory BIO and returns what it wrote as text.
    static func written(_ what: String, _ write: (OpaquePointer) -> Int32) throws(TLSError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "BIO_new failed")
        }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw OpenSSLErrorQueue.failure(.internalFailure, "\(what) failed") }
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = siwa_BIO_get_mem_data(bio, &data)
        guard let data, length > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }
}
