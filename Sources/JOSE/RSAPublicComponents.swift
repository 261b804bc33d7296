/// The modulus and public exponent of an RSA private key PEM, read without OpenSSL.
///
/// The server's start-up needs only `n` and `e` of the built-in scenario's keys before its first
/// `/auth/keys` answer; OpenSSL's decoder (with its provider set-up on the first key) cost about a fifth
/// of a start (bench/RESULTS.md, issue #26). This reads the two integers from the DER and nothing else:
/// it does not validate the key. Only keys already known to parse (the embedded built-in ones) are
/// published from it; everything else goes through ``RSAPrivateKey/init(pem:)``, the one key reader.
package enum RSAPublicComponents {
    /// `n` and `e`, big-endian without leading zeros, of an unencrypted PKCS#8 (`PRIVATE KEY` holding an
    /// `rsaEncryption` key) or PKCS#1 (`RSA PRIVATE KEY`) PEM; nil for anything else.
    package static func read(privateKeyPEM pem: String) -> (modulus: [UInt8], exponent: [UInt8])? {
        if let der = pemBody(pem, label: "PRIVATE KEY") {
            // PrivateKeyInfo ::= SEQUENCE { version INTEGER, algorithm AlgorithmIdentifier, privateKey OCTET STRING }
            var outer = DERReader(der)
            guard var info = outer.read(tag: 0x30).map(DERReader.init), outer.isAtEnd,
                info.read(tag: 0x02) == [0],
                var algorithm = info.read(tag: 0x30).map(DERReader.init),
                algorithm.read(tag: 0x06).map(Array.init) == rsaEncryption,
                let privateKey = info.read(tag: 0x04)
            else { return nil }
            return pkcs1(privateKey)
        }
        if let der = pemBody(pem, label: "RSA PRIVATE KEY") { return pkcs1(der[...]) }
        return nil
    }

    /// 1.2.840.113549.1.1.1
    private static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]

    /// RSAPrivateKey ::= SEQUENCE { version INTEGER (0), modulus INTEGER, publicExponent INTEGER, … }
    private static func pkcs1(_ der: ArraySlice<UInt8>) -> (modulus: [UInt8], exponent: [UInt8])? {
        var outer = DERReader(der)
        guard var key = outer.read(tag: 0x30).map(DERReader.init), outer.isAtEnd,
            key.read(tag: 0x02) == [0],
            let modulus = key.read(tag: 0x02), let exponent = key.read(tag: 0x02),
            modulus.first.map({ $0 & 0x80 == 0 }) == true, exponent.first.map({ $0 & 0x80 == 0 }) == true
        else { return nil }
        let n = Array(modulus.drop { $0 == 0 })
        let e = Array(exponent.drop { $0 == 0 })
        guard !n.isEmpty, !e.isEmpty else { return nil }
        return (n, e)
    }

    /// The base64 body between `-----BEGIN label-----` and `-----END label-----`, decoded; nil when the
    /// PEM has no such block, carries headers (an encrypted PKCS#1 key) or is not base64.
    private static func pemBody(_ pem: String, label: String) -> [UInt8]? {
        let bytes = Array(pem.utf8)
        guard let start = find(Array("-----BEGIN \(label)-----".utf8), in: bytes, from: 0),
            let stop = find(Array("-----END \(label)-----".utf8), in: bytes, from: start.upperBound)
        else { return nil }
        var text: [UInt8] = []
        for byte in bytes[start.upperBound..<stop.lowerBound] {
            switch byte {
            case UInt8(ascii: "+"): text.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): text.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: " "), UInt8(ascii: "\t"):
                continue
            default: text.append(byte)
            }
        }
        return Base64URL.decode(String(decoding: text, as: UTF8.self))
    }

    /// The first occurrence of `needle` in `bytes` at or after `from`.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Range<Int>? {
        guard bytes.count >= needle.count, from <= bytes.count - needle.count else { return nil }
        for index in from...(bytes.count - needle.count) {
            if bytes[index..<index + needle.count].elementsEqual(needle) { return index..<index + needle.count }
        }
        return nil
    }
}

/// Reads definite-length DER elements from a byte slice.
private struct DERReader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    var isAtEnd: Bool { bytes.isEmpty }

    /// The contents of the next element if its tag is `tag`; nil (and nothing consumed) otherwise.
    mutating func read(tag: UInt8) -> ArraySlice<UInt8>? {
        var cursor = bytes.startIndex
        guard cursor < bytes.endIndex, bytes[cursor] == tag else { return nil }
        cursor += 1
        guard cursor < bytes.endIndex else { return nil }
        var length = Int(bytes[cursor])
        cursor += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard (1...3).contains(count), bytes.endIndex - cursor >= count else { return nil }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(bytes[cursor])
                cursor += 1
            }
        }
        guard bytes.endIndex - cursor >= length else { return nil }
        let contents = bytes[cursor..<cursor + length]
        bytes = bytes[(cursor + length)...]
        return contents
    }
}
