import Testing

@testable import JSON

@Suite struct JSONSerializationTests {
    @Test func writesCompactOutputInInsertionOrder() {
        var object = JSONObject()
        object["kty"] = "RSA"
        object["kid"] = "abc"
        object["n"] = 1
        object["a"] = [true, nil, 2.5]
        #expect(JSONValue.object(object).serializedString() == #"{"kty":"RSA","kid":"abc","n":1,"a":[true,null,2.5]}"#)
    }

    @Test func replacingAValueKeepsItsPositionAndRemovingDropsIt() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["a"] = 9
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(object.description == #"{"a":9,"c":3}"#)
        #expect(object.contains("c"))
        #expect(!object.contains("b"))
    }

    @Test func escapesOnlyWhatJSONRequires() {
        let value: JSONValue = "q\" b\\ s/ n\n r\r t\t b\u{8} f\u{C} nul\u{0} us\u{1F} é😀"
        #expect(value.serializedString() == #""q\" b\\ s/ n\n r\r t\t b\b f\f nul\u0000 us\u001f é😀""#)
    }

    @Test func integersStayIntegersAndDoublesRoundTrip() {
        #expect(JSONValue.int(1_700_000_000).serializedString() == "1700000000")
        #expect(JSONValue.int(.min).serializedString() == "-9223372036854775808")
        #expect(JSONValue.double(1).serializedString() == "1.0")
        #expect(JSONValue.double(0.1).serializedString() == "0.1")
        #expect(JSONValue.double(1e-7).serializedString() == "1e-07")
        #expect(JSONValue.double(.nan).serializedString() == "null")
        #expect(JSONValue.double(-.infinity).serializedString() == "null")
    }

    @Test(arguments: [
        "null", "true", "0", "-1", "1.5", "1e+20", "5e-324", "1.7976931348623157e+308", "0.30000000000000004",
        #""""#, #""\u0000\n\"""#, "[]", "{}", #"[1,[2,[3]],{"a":{}}]"#,
        #"{"b":1,"a":2,"ü":"€","k":[null,false]}"#,
    ])
    func roundTripsByteForByte(text: String) throws {
        let value = try JSONValue.parse(text)
        #expect(value.serializedString() == text)
        #expect(try JSONValue.parse(value.serialized()) == value)
    }

    @Test func reformatsWhitespaceAndEscapes() throws {
        let value = try JSONValue.parse(" { \"a\" : [ 1 , \"\\/\\u00e9\" ] } ")
        #expect(value.serializedString() == #"{"a":[1,"/é"]}"#)
    }

    @Test func doublesRoundTripExactly() throws {
        for double in [0.1, 1.0 / 3.0, 123_456.789e-300, -2.2250738585072014e-308, 4.35] {
            let parsed = try JSONValue.parse(JSONValue.double(double).serialized())
            #expect(parsed == .double(double))
        }
    }

    /// The word-at-a-time escape scan against a byte-by-byte escaper (RFC 8259 §7), on generated strings
    /// with escapes at every offset of a word, multi-byte characters and long clean runs.
    @Test func escapingMatchesAByteByByteEscaper() {
        func reference(_ text: String) -> [UInt8] {
            var out: [UInt8] = [UInt8(ascii: "\"")]
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): out += Array("\\\"".utf8)
                case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
                case 0x0A: out += Array("\\n".utf8)
                case 0x0D: out += Array("\\r".utf8)
                case 0x09: out += Array("\\t".utf8)
                case 0x08: out += Array("\\b".utf8)
                case 0x0C: out += Array("\\f".utf8)
                case ..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                default: out.append(byte)
                }
            }
            out.append(UInt8(ascii: "\""))
            return out
        }
        let pieces = ["a", "Z", "\"", "\\", "\n", "\u{1}", "\u{1F}", " ", "~", "\u{7F}", "é", "€", "😀", "eyJhbGciOi"]
        var generator = SystemRandomNumberGenerator()
        var cases = [""] + (0..<40).map { String(repeating: "x", count: $0) + "\"" }
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...40, using: &generator)
            cases.append((0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for text in cases {
            var out: [UInt8] = []
            JSONValue.writeString(text, to: &out)
            #expect(out == reference(text), "\(text.debugDescription)")
        }
    }
}
