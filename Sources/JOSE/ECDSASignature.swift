import COpenSSL

/// Converts ECDSA P-256 signatures between DER (what OpenSSL speaks) and JOSE's raw `r || s`
/// (RFC 7518 §3.4: two 32-byte big-endian integers).
enum ECDSASignature {
    static let coordinateSize = 32

    /// DER `ECDSA-Sig-Value` → 64 raw bytes.
    static func raw(fromDER der: [UInt8]) throws(JOSEError) -> [UInt8] {
        let signature = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw OpenSSLErrors.failure(.cryptoFailure, "d2i_ECDSA_SIG failed") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer? = nil
        var s: OpaquePointer? = nil
        ECDSA_SIG_get0(signature, &r, &s)
        var raw = [UInt8](repeating: 0, count: 2 * coordinateSize)
        let written = raw.withUnsafeMutableBufferPointer { buffer in
            let size = Int32(coordinateSize)
            return (
                BN_bn2binpad(r, buffer.baseAddress, size), BN_bn2binpad(s, buffer.baseAddress! + coordinateSize, size)
            )
        }
        guard written == (Int32(coordinateSize), Int32(coordinateSize)) else {
            throw OpenSSLErrors.failure(.cryptoFailure, "ECDSA signature component larger than 32 bytes")
        }
        return raw
    }

    /// 64 raw bytes → DER, or nil if `raw` is not exactly 64 bytes or cannot be encoded.
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 2 * coordinateSize else { return nil }
        let parts = raw.withUnsafeBufferPointer { buffer in
            (
                BN_bin2bn(buffer.baseAddress, Int32(coordinateSize), nil),
                BN_bin2bn(buffer.baseAddress! + coordinateSize, Int32(coordinateSize), nil)
            )
        }
        guard let r = parts.0, let s = parts.1, let signature = ECDSA_SIG_new() else {
            BN_free(parts.0)
            BN_free(parts.1)
            OpenSSLErrors.clear()
            return nil
        }
        defer { ECDSA_SIG_free(signature) }
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {  // takes ownership of r and s only on success
            BN_free(r)
            BN_free(s)
            OpenSSLErrors.clear()
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else {
            OpenSSLErrors.clear()
            return nil
        }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        guard written == length else {
            OpenSSLErrors.clear()
            return nil
        }
        return der
    }
}
