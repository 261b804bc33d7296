import HTTP
import Testing

@Suite struct URLEncodedFormTests {
    func decode(_ text: String) throws -> [String] {
        try URLEncodedForm.decode(Array(text.utf8)).map { "\($0.name)=\($0.value)" }
    }

    @Test func decodesVectors() throws {
        #expect(try decode("a=1&b=2") == ["a=1", "b=2"])
        #expect(try decode("a+b=c+d") == ["a b=c d"])
        #expect(try decode("q=%41%62%2b%26%3D") == ["q=Ab+&="])
        #expect(try decode("flag") == ["flag="])
        #expect(try decode("a=1&&b=&") == ["a=1", "b="])
        #expect(try decode("=x") == ["=x"])
        #expect(try decode("") == [])
        #expect(try decode("a=b=c") == ["a=b=c"])
        #expect(try decode("name=%C3%A9t%C3%A9") == ["name=été"])
        #expect(
            try decode("redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb") == ["redirect_uri=https://app.example.com/cb"]
        )
    }

    @Test(arguments: ["a=%", "a=%4", "a=%zz", "%G1=1", "a=%4g"])
    func badEscapesThrowNamingTheEscape(input: String) {
        #expect(throws: URLEncodedForm.DecodingError.self) { try URLEncodedForm.decode(Array(input.utf8)) }
        do {
            _ = try URLEncodedForm.decode(Array(input.utf8))
        } catch {
            #expect(error.message.contains("percent-escape"))
        }
    }

    @Test func invalidUTF8Throws() {
        do {
            _ = try URLEncodedForm.decode(Array("a=%FF%FE".utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("UTF-8"))
        }
        #expect(throws: URLEncodedForm.DecodingError.self) { try URLEncodedForm.decode([0x61, 0x3D, 0xC3]) }
    }

    @Test func encodeKeepsOnlyUnreservedAndRoundTrips() throws {
        let pairs = [("a b", "x&y=z"), ("e", "été/~._-"), ("", "")]
        let encoded = URLEncodedForm.encode(pairs)
        #expect(encoded == "a%20b=x%26y%3Dz&e=%C3%A9t%C3%A9%2F~._-&=")
        let decoded = try URLEncodedForm.decode(Array(encoded.utf8))
        #expect(decoded.map(\.name) == ["a b", "e", ""])
        #expect(decoded.map(\.value) == ["x&y=z", "été/~._-", ""])
    }
}
