import ScenarioFormat
import Testing

/// JSON documents go through the same parser as flow-style YAML.
struct JSONInputTests {
    @Test func parsesCompactJSON() {
        #expect(
            parseAndRender(#"{"a":[1,2],"b":{"c":null,"d":true}}"#)
                == #"{d"a"@1:2: [p"1"@1:7, p"2"@1:9]@1:6, d"b"@1:12: {d"c"@1:17: p"null"@1:21, d"d"@1:26: p"true"@1:30}@1:16}@1:1"#
        )
    }

    @Test func parsesPrettyPrintedJSONWithTabs() {
        let text = "{\n\t\"team\": \"ABCDE12345\",\n\t\"users\": [\n\t\t{\"id\": \"alice\", \"status\": 2}\n\t]\n}\n"
        #expect(
            parseAndRender(text)
                == #"{d"team"@2:2: d"ABCDE12345"@2:10, d"users"@3:2: [{d"id"@4:4: d"alice"@4:10, d"status"@4:19: p"2"@4:29}@4:3]@3:11}@1:1"#
        )
    }

    @Test func parsesTopLevelArrayAndNumbers() {
        #expect(
            parseAndRender("[-1.5e3, 0, 1e-2, \"\\u00e9\\/\"]")
                == #"[p"-1.5e3"@1:2, p"0"@1:10, p"1e-2"@1:13, d"é/"@1:19]@1:1"#)
    }

    @Test func decodesJSONSurrogatePairs() throws {
        #expect(try root(#"{"e": "\ud83d\ude00"}"#).mapping().required("e").string() == "😀")
    }

    @Test func typedReadersWorkOnJSONValues() throws {
        let reader = try root(#"{"n": 42, "f": 0.5, "b": false, "d": "30s", "t": "2026-01-02T03:04:05Z"}"#).mapping()
        #expect(try reader.required("n").int() == 42)
        #expect(try reader.required("f").double() == 0.5)
        #expect(try reader.required("b").bool() == false)
        #expect(try reader.required("d").durationMilliseconds() == 30_000)
        #expect(try reader.required("t").timestamp().secondsSinceEpoch == 1_767_323_045)
    }

    @Test func rejectsTrailingGarbageAfterJSON() {
        #expect(diagnostics("{\"a\": 1}\n}") == "t.yaml:2:1: unexpected content after the document's root value")
        #expect(diagnostics("{\"a\": 1} x") == "t.yaml:1:10: unexpected 'x' after the flow mapping")
    }

    @Test func reportsDuplicateJSONKeysAndUnterminatedObjects() {
        #expect(
            diagnostics("{\"a\": 1, \"a\": 2}") == "t.yaml:1:10: duplicate key 'a' (first defined at line 1, column 2)")
        #expect(diagnostics("{\"a\": [1, 2}") == "t.yaml:1:12: expected ',' or ']' in flow sequence, found '}'")
        #expect(diagnostics("{\"a\": 1,\n") == "t.yaml:1:1: unterminated flow mapping (missing '}')")
    }
}
