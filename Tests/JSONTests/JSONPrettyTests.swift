import Testing

@testable import JSON

@Suite struct JSONPrettyTests {
    /// The layout of Apple's `/auth/keys` body in a 2020 wire log (docs/fidelity.md): two-space indent,
    /// `": "` after keys, no final newline; empty containers stay `[]` / `{}` as Python's `json.dumps`.
    @Test func prettyLayoutMatchesApplesKeysBody() throws {
        let value: JSONValue = ["keys": [["kty": "RSA", "kid": "86D88Kf", "e": "AQAB"], [:]], "none": [], "n": 1]
        let expected = """
            {
              "keys": [
                {
                  "kty": "RSA",
                  "kid": "86D88Kf",
                  "e": "AQAB"
                },
                {}
              ],
              "none": [],
              "n": 1
            }
            """
        #expect(String(decoding: value.prettySerialized(), as: UTF8.self) == expected)
        #expect(try JSONValue.parse(value.prettySerialized()) == value)
    }

    @Test func scalarsAndEscapesAreWrittenAsCompactly() {
        let value: JSONValue = ["a\"b": "line\nbreak"]
        #expect(String(decoding: value.prettySerialized(), as: UTF8.self) == "{\n  \"a\\\"b\": \"line\\nbreak\"\n}")
        #expect(JSONValue.string("x").prettySerialized() == JSONValue.string("x").serialized())
    }
}
