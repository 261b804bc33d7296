import CExampleOpenSSL
import Foundation

/// RS256 (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3) with OpenSSL 3: Foundation on Linux has no RSA,
/// and a backend that cannot use swift-crypto calls the system's libcrypto like this.
enum RS256 {
    /// Whether `signature` over `message` verifies with the RSA public key (`n`, `e`: big-endian bytes).
    static func verify(_ signature: [UInt8], over message: [UInt8], modulus: [UInt8], exponent: [UInt8]) -> Bool {
        guard let n = BN_bin2bn(modulus, Int32(modulus.count), nil) else { return false }
        defer { BN_free(n) }
        guard let e = BN_bin2bn(exponent, Int32(exponent.count), nil) else { return false }
        defer { BN_free(e) }
        guard let builder = OSSL_PARAM_BLD_new() else { return false }
        defer { OSSL_PARAM_BLD_free(builder) }
        // The builder keeps the name pointers until `to_param`: static strings, never a Swift String's
        // temporary C copy (OSSL_PKEY_PARAM_RSA_N imported as a String would dangle).
        guard OSSL_PARAM_BLD_push_BN(builder, cString("n"), n) == 1,
            OSSL_PARAM_BLD_push_BN(builder, cString("e"), e) == 1,
            let parameters = OSSL_PARAM_BLD_to_param(builder)
        else { return false }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else { return false }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &key, example_public_key_selection(), parameters) == 1, let key
        else { return false }
        defer { EVP_PKEY_free(key) }
        guard let digest = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(digest) }
        guard EVP_DigestVerifyInit_ex(digest, nil, "SHA256", nil, nil, key, nil) == 1 else { return false }
        let verified = EVP_DigestVerify(digest, signature, signature.count, message, message.count) == 1
        ERR_clear_error()
        return verified
    }

    private static func cString(_ name: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}

/// base64url without padding (RFC 7515 §2), as JWS and JWK use it.
enum Base64URL {
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}
