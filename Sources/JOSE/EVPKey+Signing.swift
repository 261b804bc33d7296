import COpenSSL

extension EVPKey {
    /// Signs `message` with SHA-256 and the key's default scheme (PKCS#1 v1.5 for RSA, DER ECDSA for EC).
    ///
    /// Uses a fresh `EVP_MD_CTX` per call, so one key can sign from many threads.
    func signSHA256(_ message: [UInt8]) throws(JOSEError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else {
            throw OpenSSLErrors.failure(.cryptoFailure, "EVP_MD_CTX_new failed")
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, FetchedDigest.sha256 ?? EVP_sha256(), nil, pointer) == 1 else {
            throw OpenSSLErrors.failure(.cryptoFailure, "EVP_DigestSignInit failed")
        }
        return try message.withUnsafeBufferPointer { (input) throws(JOSEError) -> [UInt8] in
            var length = 0
            guard EVP_DigestSign(context, nil, &length, input.baseAddress, input.count) == 1, length > 0 else {
                throw OpenSSLErrors.failure(.cryptoFailure, "EVP_DigestSign (size) failed")
            }
            var signature = [UInt8](repeating: 0, count: length)
            let status = signature.withUnsafeMutableBufferPointer { output in
                EVP_DigestSign(context, output.baseAddress, &length, input.baseAddress, input.count)
            }
            guard status == 1 else { throw OpenSSLErrors.failure(.cryptoFailure, "EVP_DigestSign failed") }
            // The first call reports a maximum (ECDSA DER length varies); keep what was written.
            signature.removeSubrange(min(length, signature.count)...)
            return signature
        }
    }

    /// Verifies a SHA-256 signature in OpenSSL's native form (PKCS#1 v1.5 for RSA, DER for ECDSA).
    /// Any failure, including a malformed signature, is `false` and leaves the error queue empty.
    func verifySHA256(signature: [UInt8], message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else {
            OpenSSLErrors.clear()
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, FetchedDigest.sha256 ?? EVP_sha256(), nil, pointer) == 1 else {
            OpenSSLErrors.clear()
            return false
        }
        let status = signature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { input in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, input.baseAddress, input.count)
            }
        }
        if status != 1 { OpenSSLErrors.clear() }
        return status == 1
    }
}
