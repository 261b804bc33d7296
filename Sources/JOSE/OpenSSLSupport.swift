import COpenSSL
import KindedErrors

// The OpenSSL support layer shared by JOSE and TLS (TLS uses it through `package` access): the error
// queue, memory BIOs and the PEM private-key reader (`EVPKey.readPrivateKey`). Only JOSE and TLS import
// COpenSSL, and no OpenSSL type appears in a public signature.

/// The kinds every OpenSSL-backed module needs, so the shared helpers can throw that module's error.
package protocol OpenSSLFailureKind: Sendable, Equatable {
    /// Input OpenSSL cannot use (a PEM that is too large or not what was expected).
    static var unusableInput: Self { get }
    /// A failure unrelated to the input (allocation, key generation).
    static var internalFailure: Self { get }
}

/// The thread-local OpenSSL error queue, turned into text for ``KindedError`` messages.
package enum OpenSSLErrors {
    /// Removes every queued error and returns them joined by "; " (empty if none were queued).
    package static func drain() -> String {
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

    /// Forgets queued errors after a failure we expected (bad signature, wrong PEM type).
    package static func clear() { ERR_clear_error() }

    /// An error of `kind` for a failed OpenSSL call, with the drained error queue as detail.
    package static func failure<Kind>(_ kind: Kind, _ what: String) -> KindedError<Kind> {
        let detail = drain()
        return KindedError(kind, detail.isEmpty ? what : "\(what) (\(detail))")
    }
}

/// A NUL-terminated C string with static lifetime, for OpenSSL parameter names that OpenSSL keeps
/// pointers to (`OSSL_PARAM`, `OSSL_PARAM_BLD` do not copy their keys).
func staticCString(_ string: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Memory `BIO`s for PEM text in and out.
package enum MemoryBIO {
    /// PEM input larger than this is refused before OpenSSL sees it (a key or chain is a few KiB).
    static let maximumInput = 1 << 24

    /// Runs `body` with a memory BIO holding a copy of `bytes`; the BIO is freed afterwards.
    package static func withReading<R, Kind: OpenSSLFailureKind>(
        _ bytes: [UInt8],
        _ body: (OpaquePointer) throws(KindedError<Kind>) -> R
    ) throws(KindedError<Kind>) -> R {
        guard bytes.count < maximumInput else { throw KindedError(.unusableInput, "PEM input too large") }
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw OpenSSLErrors.failure(.internalFailure, "BIO_new failed")
        }
        defer { BIO_free(bio) }
        let written = bytes.withUnsafeBytes { BIO_write(bio, $0.baseAddress, Int32($0.count)) }
        guard written == Int32(bytes.count) || bytes.isEmpty else {
            throw OpenSSLErrors.failure(.internalFailure, "BIO_write failed")
        }
        return try body(bio)
    }

    /// Runs `write` against a fresh memory BIO and returns what it wrote as text.
    ///
    /// Writing PEM to memory fails only when allocation fails, so failure is treated as fatal.
    package static func writtenText(_ what: String, _ write: (OpaquePointer) -> Int32) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { preconditionFailure("BIO_new failed: \(OpenSSLErrors.drain())") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { preconditionFailure("\(what) failed: \(OpenSSLErrors.drain())") }
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = siwa_BIO_get_mem_data(bio, &data)
        guard let data, length > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }
}

/// Owns an `OSSL_PARAM_BLD` and the `BIGNUM`s pushed into it, and turns them into an `EVP_PKEY`.
final class KeyParameterBuilder {
    private let builder: OpaquePointer
    private var numbers: [OpaquePointer] = []
    /// Octet-string values: the builder keeps only a pointer until `OSSL_PARAM_BLD_to_param`.
    private var buffers: [UnsafeMutableRawBufferPointer] = []

    init() throws(JOSEError) {
        guard let builder = OSSL_PARAM_BLD_new() else {
            throw OpenSSLErrors.failure(.cryptoFailure, "OSSL_PARAM_BLD_new failed")
        }
        self.builder = builder
    }

    deinit {
        OSSL_PARAM_BLD_free(builder)
        for number in numbers { BN_clear_free(number) }
        for buffer in buffers {
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            buffer.deallocate()
        }
    }

    /// Adds a big-endian unsigned integer parameter.
    func push(_ key: StaticString, bigEndian bytes: [UInt8]) throws(JOSEError) {
        guard bytes.count < Int32.max,
            let number = bytes.withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress, Int32($0.count), nil) })
        else { throw OpenSSLErrors.failure(.cryptoFailure, "BN_bin2bn failed") }
        numbers.append(number)
        guard OSSL_PARAM_BLD_push_BN(builder, staticCString(key), number) == 1 else {
            throw OpenSSLErrors.failure(.cryptoFailure, "OSSL_PARAM_BLD_push_BN(\(key)) failed")
        }
    }

    /// Adds a UTF-8 string parameter (the value must have static lifetime too).
    func push(_ key: StaticString, utf8 value: StaticString) throws(JOSEError) {
        guard OSSL_PARAM_BLD_push_utf8_string(builder, staticCString(key), staticCString(value), 0) == 1 else {
            throw OpenSSLErrors.failure(.cryptoFailure, "OSSL_PARAM_BLD_push_utf8_string(\(key)) failed")
        }
    }

    /// Adds an octet-string parameter. The builder only keeps a pointer, so the bytes are copied
    /// into a buffer that lives as long as the builder.
    func push(_ key: StaticString, octets: [UInt8]) throws(JOSEError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(octets.count, 1), alignment: 1)
        buffer.copyBytes(from: octets)
        buffers.append(buffer)
        let status = OSSL_PARAM_BLD_push_octet_string(builder, staticCString(key), buffer.baseAddress, octets.count)
        guard status == 1 else {
            throw OpenSSLErrors.failure(.cryptoFailure, "OSSL_PARAM_BLD_push_octet_string(\(key)) failed")
        }
    }

    /// Builds a key of `algorithm` ("RSA", "EC") from the pushed parameters via `EVP_PKEY_fromdata`.
    func makeKey(algorithm: String, selection: Int32) throws(JOSEError) -> EVPKey {
        guard let params = OSSL_PARAM_BLD_to_param(builder) else {
            throw OpenSSLErrors.failure(.cryptoFailure, "OSSL_PARAM_BLD_to_param failed")
        }
        defer { OSSL_PARAM_free(params) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else {
            throw OpenSSLErrors.failure(.cryptoFailure, "EVP_PKEY_CTX_new_from_name(\(algorithm)) failed")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_fromdata_init(context) == 1 else {
            throw OpenSSLErrors.failure(.cryptoFailure, "EVP_PKEY_fromdata_init failed")
        }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_fromdata(context, &key, selection, params) == 1, let key else {
            throw OpenSSLErrors.failure(.invalidKey, "the \(algorithm) key parameters were rejected")
        }
        return EVPKey(taking: key)
    }
}

/// `EVP_PKEY_fromdata` selections (the C macros are compound expressions Swift does not import).
enum KeySelection {
    private static let parameters = Int32(OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS)
    /// `EVP_PKEY_PUBLIC_KEY`.
    static let publicKey = parameters | Int32(OSSL_KEYMGMT_SELECT_PUBLIC_KEY)
    /// `EVP_PKEY_KEYPAIR`.
    static let keyPair = publicKey | Int32(OSSL_KEYMGMT_SELECT_PRIVATE_KEY)
}

/// SHA-256 fetched from the default provider once. Passing `EVP_sha256()` makes OpenSSL 3 look the
/// algorithm up by name on every call (string compares under a lock); a fetched `EVP_MD` is immutable
/// and safe to share between threads.
enum FetchedDigest {
    nonisolated(unsafe) static let sha256: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)
}

/// Process-wide OpenSSL settings for the executable and the in-process library.
package enum OpenSSLLibrary {
    /// Keeps OpenSSL from tearing itself down in an `atexit` handler. A background thread (signing-key
    /// generation) may still be inside libcrypto when the process exits after SIGTERM, or when a test
    /// process exits; OpenSSL's cleanup would free what that thread is using and the exit would end in
    /// SIGSEGV instead of 0. Call it before any other OpenSSL call: the first initialisation decides
    /// (later calls do nothing).
    package static func skipCleanupAtExit() {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }
}
