import JOSE
import Testing

@Suite struct Base64URLTests {
    /// RFC 4648 §10 test vectors, without padding.
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test func usesTheURLSafeAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
        #expect(Base64URL.encode([0x3E, 0x3F]) == "Pj8")
    }

    @Test func roundTripsEveryByteValue() {
        let bytes = (0...255).map { UInt8($0) }
        for length in 0...bytes.count {
            #expect(Base64URL.decode(Base64URL.encode(bytes.prefix(length))) == Array(bytes.prefix(length)))
        }
    }

    @Test(arguments: [
        "Zg==",  // padding
        "Zm8=",
        "Z",  // impossible length
        "Zm9vY",
        "a+b/",  // standard alphabet
        "Zm 9v",  // whitespace
        "Zm9v\n",
        "Zh",  // non-zero trailing bits (non-canonical form of "f")
        "Zm9",  // non-zero trailing bits (non-canonical "fo")
        "é",
    ])
    func rejectsInvalidInput(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func decodesSubstrings() {
        let token = "xx.Zm9v.yy"
        let middle = token.split(separator: ".")[1]
        #expect(Base64URL.decode(middle) == Array("foo".utf8))
    }
}

@Suite struct SHA256Tests {
    @Test func fips180Vectors() {
        #expect(
            hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256.hash([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(hex(SHA256.hash(twoBlocks.utf8)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
