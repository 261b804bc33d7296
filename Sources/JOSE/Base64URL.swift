/// Base64url without padding (RFC 7515 §2, RFC 4648 §5).
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes `bytes` with the url-safe alphabet and no `=` padding.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        let length = (input.count * 4 + 2) / 3
        return input.withUnsafeBufferPointer { input in
            String(unsafeUninitializedCapacity: length) { output in
                alphabet.withUnsafeBufferPointer { alphabet in
                    var index = 0
                    var out = 0
                    while index + 3 <= input.count {
                        let chunk =
                            UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                        output[out] = alphabet[Int(chunk >> 18 & 0x3F)]
                        output[out + 1] = alphabet[Int(chunk >> 12 & 0x3F)]
                        output[out + 2] = alphabet[Int(chunk >> 6 & 0x3F)]
                        output[out + 3] = alphabet[Int(chunk & 0x3F)]
                        index += 3
                        out += 4
                    }
                    switch input.count - index {
                    case 1:
                        let chunk = UInt32(input[index]) << 16
                        output[out] = alphabet[Int(chunk >> 18 & 0x3F)]
                        output[out + 1] = alphabet[Int(chunk >> 12 & 0x3F)]
                        out += 2
                    case 2:
                        let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
                        output[out] = alphabet[Int(chunk >> 18 & 0x3F)]
                        output[out + 1] = alphabet[Int(chunk >> 12 & 0x3F)]
                        output[out + 2] = alphabet[Int(chunk >> 6 & 0x3F)]
                        out += 3
                    default:
                        break
                    }
                    return out
                }
            }
        }
    }

    /// Returns nil for characters outside the url-safe alphabet, padding, or an impossible length.
    ///
    /// Also rejects non-canonical input whose unused trailing bits are not zero, so each byte string
    /// has exactly one accepted encoding (no malleable signatures).
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = text.utf8
        guard utf8.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bitCount = 0
        for character in utf8 {
            guard let value = sextet(character) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bitCount)))
                accumulator &= (1 << UInt32(bitCount)) - 1
            }
        }
        guard accumulator == 0 else { return nil }
        return output
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
