import Testing

@testable import JSON

/// Parses `text` and returns the error, failing the test if it parsed.
private func parseError(_ text: String, maxDepth: Int = 64) -> JSONParseError? {
    parseError(Array(text.utf8), maxDepth: maxDepth)
}

private func parseError(_ bytes: [UInt8], maxDepth: Int = 64) -> JSONParseError? {
    do {
        let value = try JSONValue.parse(bytes, maxDepth: maxDepth)
        Issue.record("expected an error, parsed \(value)")
        return nil
    } catch {
        return error
    }
}

@Suite struct JSONParseTests {
    @Test func parsesScalars() throws {
        #expect(try JSONValue.parse("null") == .null)
        #expect(try JSONValue.parse(" true ") == .bool(true))
        #expect(try JSONValue.parse("false") == .bool(false))
        #expect(try JSONValue.parse("0") == .int(0))
        #expect(try JSONValue.parse("-12") == .int(-12))
        #expect(try JSONValue.parse("1.5") == .double(1.5))
        #expect(try JSONValue.parse("1e3") == .double(1000))
        #expect(try JSONValue.parse("-2.5E-3") == .double(-0.0025))
        #expect(try JSONValue.parse("\"hi\"") == .string("hi"))
    }

    @Test func integersAtTheEdgesOfInt64() throws {
        #expect(try JSONValue.parse("9223372036854775807") == .int(.max))
        #expect(try JSONValue.parse("-9223372036854775808") == .int(.min))
        // One past the edge no longer fits and becomes a double.
        #expect(try JSONValue.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSONValue.parse("1" + String(repeating: "0", count: 40)) == .double(1e40))
    }

    @Test func parsesNestedDocumentKeepingKeyOrder() throws {
        let value = try JSONValue.parse(#"{"z":1,"a":[true,null,{"m":"x"}],"k":{}}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["z", "a", "k"])
        #expect(value["a"]?[2]?["m"] == .string("x"))
        #expect(value["k"] == .object(JSONObject()))
        #expect(value["missing"] == nil)
    }

    @Test func decodesEscapes() throws {
        let value = try JSONValue.parse(#""a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00\u0000""#)
        #expect(value == .string("a\"b\\c/d\u{8}\u{C}\n\r\tAé€😀\u{0}"))
    }

    @Test func acceptsRawUTF8() throws {
        #expect(try JSONValue.parse("\"é€😀\"") == .string("é€😀"))
    }

    @Test func rejectsTrailingGarbage() {
        #expect(parseError("{} x")?.offset == 3)
        #expect(parseError("1 2")?.offset == 2)
        #expect(parseError("[1]]")?.offset == 3)
    }

    @Test func rejectsEmptyAndTruncatedInput() {
        #expect(parseError("")?.offset == 0)
        #expect(parseError("   ")?.offset == 3)
        #expect(parseError("[1,")?.message.contains("end of input") == true)
        #expect(parseError("{\"a\"")?.message.contains("':'") == true)
        #expect(parseError("\"abc")?.message == "unterminated string")
        #expect(parseError("tru")?.message.contains("true") == true)
    }

    @Test func rejectsMalformedNumbers() {
        #expect(parseError("01")?.message.contains("leading zeros") == true)
        #expect(parseError("-01")?.offset == 0)
        #expect(parseError("1.")?.offset == 2)
        #expect(parseError(".5")?.offset == 0)
        #expect(parseError("+1")?.offset == 0)
        #expect(parseError("1e")?.offset == 2)
        #expect(parseError("-")?.offset == 1)
        #expect(parseError("1e999")?.message == "number out of range")
        #expect(parseError("NaN") != nil)
        #expect(parseError("Infinity") != nil)
    }

    @Test func rejectsStructuralErrors() {
        #expect(parseError("[1,]")?.offset == 3)
        #expect(parseError("{\"a\":1,}")?.offset == 7)
        #expect(parseError("{a:1}")?.message.contains("string key") == true)
        #expect(parseError("[1 2]")?.offset == 3)
        #expect(parseError("{'a':1}")?.offset == 1)
    }

    @Test func rejectsDuplicateKeysAtTheSecondKey() throws {
        let error = try #require(parseError(#"{"a":1,"b":2,"a":3}"#))
        #expect(error.offset == 13)
        #expect(error.message == "duplicate object key \"a\"")
        // Same key in different objects is fine.
        #expect(throws: Never.self) { try JSONValue.parse(#"[{"a":1},{"a":2}]"#) }
    }

    @Test func rejectsBadStrings() {
        #expect(parseError("\"a\nb\"")?.offset == 2)
        #expect(parseError(#""\x""#)?.message.contains("invalid escape") == true)
        #expect(parseError(#""\u12G4""#)?.offset == 5)
        #expect(parseError(#""\ud800""#)?.message.contains("lone high surrogate") == true)
        #expect(parseError(#""\ud800\u0041""#)?.message.contains("not followed by a low surrogate") == true)
        #expect(parseError(#""\udc00""#)?.message.contains("lone low surrogate") == true)
    }

    @Test(
        arguments: [
            [0x22, 0xFF, 0x22],  // never valid
            [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
            [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong 3-byte
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // encoded surrogate U+D800
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0xE2, 0x82, 0x22],  // truncated €
            [0x22, 0x80, 0x22],  // stray continuation byte
            [0x22, 0xE2, 0x82],  // truncated at end of input
        ] as [[UInt8]])
    func rejectsInvalidUTF8(bytes: [UInt8]) throws {
        let error = try #require(parseError(bytes))
        #expect(error.offset >= 1)
        #expect(error.message.contains("UTF-8"))
    }

    @Test func rejectsBareByteOrderMark() {
        #expect(parseError([0xEF, 0xBB, 0xBF, 0x31])?.offset == 0)
    }

    @Test func enforcesDepthLimit() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONValue.parse(ok) }
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        let error = try #require(parseError(deep))
        #expect(error.offset == 64)
        #expect(error.message == "nesting deeper than 64 levels")
        #expect(parseError(#"{"a":{"b":1}}"#, maxDepth: 1)?.offset == 5)
    }

    @Test func hugeNestingFailsWithoutCrashing() {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(parseError(bytes)?.offset == 64)
        let objects = String(repeating: #"{"a":"#, count: 100_000)
        #expect(parseError(objects) != nil)
    }

    @Test func errorDescriptionNamesTheOffset() {
        let error = JSONParseError(offset: 7, message: "boom")
        #expect(error.description == "JSON error at byte 7: boom")
    }

    @Test func acceptsNonArrayInputCollections() throws {
        let slice = Array("xx[1]".utf8)[2...]
        #expect(try JSONValue.parse(slice) == .array([.int(1)]))
    }
}
