import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG (`RAND_bytes`): seeded from the OS once,
/// then generated in user space, so there is no system call per value.
package enum SecureRandom {
    /// Fills `buffer` with random bytes.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        if RAND_bytes(base.assumingMemoryBound(to: UInt8.self), Int32(buffer.count)) != 1 {
            // The DRBG cannot fail once seeded; if it ever does, fall back to the OS generator.
            ERR_clear_error()
            var generator = SystemRandomNumberGenerator()
            for index in 0..<buffer.count { buffer[index] = UInt8.random(in: 0...255, using: &generator) }
        }
    }

    /// The next 64 random bits.
    package static func uint64() -> UInt64 {
        var value: UInt64 = 0
        withUnsafeMutableBytes(of: &value) { fill($0) }
        return value
    }
}
