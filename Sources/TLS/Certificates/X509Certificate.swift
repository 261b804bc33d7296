import COpenSSL
import Glibc
import JOSE

/// Owns one OpenSSL `X509`.
final class X509Certificate {
    let pointer: OpaquePointer

    init(owning pointer: OpaquePointer) { self.pointer = pointer }

    deinit { X509_free(pointer) }

    /// Every certificate in a PEM bundle, in order.
    static func readAll(pem: String) throws(TLSError) -> [X509Certificate] {
        try MemoryBIO.withReading(Array(pem.utf8)) { bio throws(TLSError) -> [X509Certificate] in
            var result: [X509Certificate] = []
            // The password callback refuses: a PEM with encryption headers fails instead of prompting.
            while let certificate = PEM_read_bio_X509(bio, nil, { _, _, _, _ in -1 }, nil) {
                result.append(X509Certificate(owning: certificate))
            }
            // The loop ends with a "no start line" error at the end of the input; anything else is real.
            let detail = OpenSSLErrors.drain()
            if result.isEmpty {
                throw TLSError(
                    .invalidCredentials, detail.isEmpty ? "no PEM certificate" : "no PEM certificate (\(detail))")
            }
            return result
        }
    }

    /// The single certificate in `pem`.
    static func read(pem: String) throws(TLSError) -> X509Certificate {
        try readAll(pem: pem)[0]
    }

    func pem() -> String {
        MemoryBIO.writtenText("PEM_write_bio_X509") { bio in PEM_write_bio_X509(bio, pointer) }
    }

    /// Whether the certificate's subjectAltName covers the DNS name or IP address.
    func covers(_ name: String) -> Bool {
        let matched: Int32
        if IPAddressText.isIPAddress(name) {
            matched = X509_check_ip_asc(pointer, name, 0)
        } else {
            matched = X509_check_host(pointer, name, name.utf8.count, 0, nil)
        }
        ERR_clear_error()
        return matched == 1
    }

    /// Whether the certificate is still valid `seconds` from now.
    func isValid(forAnother seconds: Int) -> Bool {
        var then = time(nil) + seconds
        return X509_cmp_time(X509_get0_notAfter(pointer), &then) > 0
    }

    /// Whether `issuer`'s key signed this certificate.
    func isSigned(by issuer: EVPKey) -> Bool {
        let result = X509_verify(pointer, issuer.pointer)
        ERR_clear_error()
        return result == 1
    }

    /// The subject's common name.
    var commonName: String? {
        guard let name = X509_get_subject_name(pointer) else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        let length = X509_NAME_get_text_by_NID(name, NID_commonName, &buffer, Int32(buffer.count))
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Distinguishes IP literals from DNS names for subjectAltName entries.
enum IPAddressText {
    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
