import JOSE
import Testing

/// Runs `body` and returns the ``JOSEError`` it threw, recording an issue if it succeeded.
func joseError<T>(_ body: () throws(JOSEError) -> T, sourceLocation: SourceLocation = #_sourceLocation) -> JOSEError? {
    do {
        _ = try body()
        Issue.record("expected a JOSEError", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Decodes base64url that a test knows is valid.
func decoded(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    try #require(Base64URL.decode(text), sourceLocation: sourceLocation)
}

/// Lowercase hex of `bytes`.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

/// A copy of `bytes` with one bit flipped at `index`.
func flippingBit(_ bytes: [UInt8], at index: Int) -> [UInt8] {
    var copy = bytes
    copy[index] ^= 0x01
    return copy
}
