import JOSE
import Testing

/// RFC 4231 §4.2 and §4.7: a short key, and a key longer than the block (hashed first).
@Suite struct HMACSHA256Tests {
    @Test func rfc4231TestCase1() {
        let mac = HMACSHA256.authenticate(Array("Hi There".utf8), key: [UInt8](repeating: 0x0B, count: 20))
        #expect(Base16.lowercase(mac) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test func rfc4231TestCase6KeyLongerThanTheBlock() {
        let mac = HMACSHA256.authenticate(
            Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            key: [UInt8](repeating: 0xAA, count: 131))
        #expect(Base16.lowercase(mac) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }
}
