/// Lowercase hexadecimal text (RFC 4648 §8, lowercase as fingerprints, identifiers and ETags show it).
package enum Base16 {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Two lowercase hex digits per byte.
    package static func lowercase<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
