/// HMAC-SHA256 (RFC 2104, key and message as bytes), for HS256 signatures: the mock only makes them
/// to test that a relying party refuses them (docs/rp-check.md), it never verifies one.
package enum HMACSHA256 {
    static let blockSize = 64

    /// The 32-byte MAC of `message` under `key` (a key longer than a block is hashed first).
    package static func authenticate(_ message: some Collection<UInt8>, key: some Collection<UInt8>) -> [UInt8] {
        var block = key.count > blockSize ? SHA256.hash(key) : Array(key)
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        let inner = SHA256.hash(block.map { $0 ^ 0x36 } + Array(message))
        return SHA256.hash(block.map { $0 ^ 0x5C } + inner)
    }
}
