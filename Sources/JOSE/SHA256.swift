import COpenSSL

/// SHA-256 digests (for `at_hash`/`c_hash`, fingerprints and the secret cache).
package enum SHA256 {
    /// The 32-byte SHA-256 digest of `bytes` (FIPS 180-4), computed by OpenSSL's `EVP_Digest`.
    package static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let status = input.withUnsafeBytes { inputBuffer in
            digest.withUnsafeMutableBufferPointer { digestBuffer in
                EVP_Digest(
                    inputBuffer.baseAddress, inputBuffer.count, digestBuffer.baseAddress, &length,
                    FetchedDigest.sha256 ?? EVP_sha256(), nil)
            }
        }
        // EVP_Digest with a built-in digest fails only when memory allocation fails.
        guard status == 1, length == 32 else {
            preconditionFailure("EVP_Digest(SHA-256) failed: \(OpenSSLErrors.drain())")
        }
        return digest
    }
}
