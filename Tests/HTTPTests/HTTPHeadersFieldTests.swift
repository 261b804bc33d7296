import Testing

@testable import HTTP

/// The typed reads on `HTTPHeaders`: each field's grammar parsed once, case-insensitive names.
@Suite struct HTTPHeadersFieldTests {
    @Test(arguments: [
        ("application/x-www-form-urlencoded", "application/x-www-form-urlencoded"),
        ("Application/X-WWW-Form-URLEncoded; charset=UTF-8", "application/x-www-form-urlencoded"),
        (" \tapplication/json \t;charset=utf-8", "application/json"),
        ("text/html", "text/html"),
        ("  ", ""),
        (";charset=utf-8", ""),
        ("TEXT/Plain\t", "text/plain"),
        ("application/ÉTÉ ; x=1", "application/été"),
    ])
    func mediaTypeDropsParametersAndCase(field: String, expected: String) {
        #expect(HTTPHeaders([("content-type", field)]).mediaType == expected)
        #expect(HTTPHeaders([("content-type", field)]).contentType == field)
    }

    @Test func absentFieldsReadAsNil() throws {
        let headers = HTTPHeaders()
        #expect(headers.mediaType == nil)
        #expect(try headers.contentLength() == nil)
        #expect(headers.bearerToken == nil)
        #expect(!headers.hasBasicAuthorization)
        #expect(!headers.isChunked)
        #expect(!headers.asksToClose)
        #expect(headers.cookies.isEmpty)
    }

    @Test(arguments: ["", "-5", "+5", "1e3", " 12", "1234567890123456", "0x10"])
    func contentLengthRefusesWhatIsNotDigits(value: String) {
        #expect(throws: HTTPHeaders.InvalidField(name: "Content-Length", value: value)) {
            try HTTPHeaders([("Content-Length", value)]).contentLength()
        }
    }

    @Test func contentLengthReadsDigits() throws {
        #expect(try HTTPHeaders([("content-length", "0")]).contentLength() == 0)
        #expect(try HTTPHeaders([("Content-Length", "123456789012345")]).contentLength() == 123_456_789_012_345)
    }

    @Test func authorizationSchemes() {
        let bearer = HTTPHeaders([("authorization", "Bearer s3cret")])
        #expect(bearer.bearerToken == "s3cret")
        #expect(!bearer.hasBasicAuthorization)
        let basic = HTTPHeaders([("Authorization", "BASIC Y2xpZW50OnNlY3JldA==")])
        #expect(basic.hasBasicAuthorization)
        #expect(basic.bearerToken == nil)
        #expect(basic.authorization == "BASIC Y2xpZW50OnNlY3JldA==")
    }

    @Test func framingAndOtherFields() {
        let headers = HTTPHeaders([
            ("Transfer-Encoding", "gzip, Chunked"), ("connection", "Close"), ("HOST", "appleid.apple.com"),
            ("origin", "https://app.example.com"), ("Location", "/cb?code=c"), ("if-none-match", "\"v1\""),
            ("Cookie", "a=1"), ("cookie", "b=2"),
        ])
        #expect(headers.isChunked)
        #expect(headers.asksToClose)
        #expect(headers.host == "appleid.apple.com")
        #expect(headers.origin == "https://app.example.com")
        #expect(headers.location == "/cb?code=c")
        #expect(headers.ifNoneMatch == "\"v1\"")
        #expect(headers.cookies == ["a=1", "b=2"])
    }
}
