import ScenarioFormat
import Testing

/// Documents outside the subset, each with the exact diagnostics (`file:line:column: message`).
struct MalformedDocumentTests {
    static let corpus: [(String, String)] = [
        // Unsupported YAML features.
        ("a: &x 1", "t.yaml:1:4: anchors (&) are not supported"),
        ("a: *x", "t.yaml:1:4: aliases (*) are not supported"),
        ("a: !!str 1", "t.yaml:1:4: tags (!) are not supported"),
        ("&a key: 1", "t.yaml:1:1: anchors (&) are not supported"),
        ("a: 1\n---\nb: 2", "t.yaml:2:1: multiple documents (---) are not supported"),
        ("a: 1\n...\n", "t.yaml:2:1: document end markers (...) are not supported"),
        ("%YAML 1.2\n---\na: 1", "t.yaml:1:1: directives (%) are not supported"),
        ("a: >\n  folded", "t.yaml:1:4: folded block scalars (>) are not supported; use a literal block scalar (|)"),
        (
            "? complex\n: value",
            "t.yaml:1:1: complex keys (?) are not supported\nt.yaml:2:1: unexpected content after the document's root value"
        ),
        ("a: %x", "t.yaml:1:4: '%' cannot start a plain scalar; quote the value"),
        ("a: @x", "t.yaml:1:4: '@' is reserved and cannot start a plain scalar; quote the value"),
        ("--- a: 1", "t.yaml:1:5: unexpected 'a' after '---' (content must start on the next line)"),
        // Tabs and indentation.
        ("a:\n\tb: 1", "t.yaml:1:1: missing value for key 'a'\nt.yaml:2:1: tabs are not allowed for indentation"),
        ("a: 1\n  b: 2", "t.yaml:2:3: bad indentation: expected 0 spaces, found 2"),
        ("a:\n    b: 1\n  c: 2\nd: 3", "t.yaml:3:3: bad indentation: expected 0 spaces, found 2"),
        ("- a\n  - b", "t.yaml:2:3: bad indentation: expected 0 spaces, found 2"),
        ("  a: 1\nb: 2", "t.yaml:2:1: bad indentation: expected 2 spaces, found 0"),
        ("text: first line\n  continued", "t.yaml:2:3: bad indentation: expected 0 spaces, found 2"),
        // Mixed block kinds.
        (
            "a: 1\n- b",
            "t.yaml:2:1: expected a mapping key, found a sequence entry '-' (a block cannot mix mapping keys and sequence entries)"
        ),
        (
            "- a\nb: 1",
            "t.yaml:2:1: expected a sequence entry '- ', found a mapping key (a block cannot mix sequence entries and mapping keys)"
        ),
        ("- a\nb", "t.yaml:2:1: expected a sequence entry '- '"),
        ("a: - b", "t.yaml:1:4: a block sequence cannot start on the same line as its key; start it on the next line"),
        ("a: b: c", "t.yaml:1:5: unexpected ':' after the value (a nested mapping must start on its own line)"),
        // Keys and values.
        ("a:\nb: 1", "t.yaml:1:1: missing value for key 'a'"),
        ("a: 1\nb:", "t.yaml:2:1: missing value for key 'b'"),
        ("- a\n-\n- c", "t.yaml:2:1: missing value for sequence entry"),
        ("a: 1\njust text\nb: 2", "t.yaml:2:10: expected ':' after mapping key"),
        (
            "a: 1\nport:8080",
            "t.yaml:2:10: expected ':' after mapping key (a ':' inside a key must be followed by a space to end the key)"
        ),
        ("a: 1\nb: 2\na: 3", "t.yaml:3:1: duplicate key 'a' (first defined at line 1, column 1)"),
        ("x: {a: 1, a: 2}", "t.yaml:1:11: duplicate key 'a' (first defined at line 1, column 5)"),
        ("\"a\": 1\na: 2", "t.yaml:2:1: duplicate key 'a' (first defined at line 1, column 1)"),
        ("a: 1\n: 2", "t.yaml:2:1: expected a mapping key before ':'"),
        ("", "t.yaml:1:1: the document is empty"),
        ("# only a comment\n\n", "t.yaml:1:1: the document is empty"),
        ("---\n", "t.yaml:1:1: the document is empty"),
        // Quoted scalars and escapes.
        ("a: \"open", "t.yaml:1:4: unterminated double-quoted scalar (missing closing '\"' on this line)"),
        ("a: 'open\n  more'", "t.yaml:1:4: unterminated single-quoted scalar (missing closing \"'\" on this line)"),
        ("a: \"x\\q\"", "t.yaml:1:6: invalid escape sequence '\\q' in double-quoted scalar"),
        ("a: \"\\u12G4\"", "t.yaml:1:5: invalid escape sequence '\\u': expected 4 hexadecimal digits"),
        ("a: \"\\uD800\"", "t.yaml:1:5: invalid escape sequence '\\uD800': unpaired surrogate"),
        (
            "a: \"\\uDC00\"",
            "t.yaml:1:5: invalid escape sequence '\\uDC00': not a Unicode scalar value (unpaired surrogate or above U+10FFFF)"
        ),
        (
            "a: \"\\U00110000\"",
            "t.yaml:1:5: invalid escape sequence '\\U00110000': not a Unicode scalar value (unpaired surrogate or above U+10FFFF)"
        ),
        ("a: \"x\" y", "t.yaml:1:8: unexpected 'y' after the quoted scalar"),
        // Flow collections.
        ("a: [1, 2] x", "t.yaml:1:11: unexpected 'x' after the flow sequence"),
        ("a: {b: 1} # ok\nc: {d: 1}}", "t.yaml:2:10: unexpected '}' after the flow mapping"),
        ("a: [1, 2", "t.yaml:1:4: unterminated flow sequence (missing ']')"),
        ("a: {b: 1", "t.yaml:1:4: unterminated flow mapping (missing '}')"),
        ("a: [1 2, \"y\" z]", "t.yaml:1:14: expected ',' or ']' in flow sequence, found 'z'"),
        ("a: [1, , 2]", "t.yaml:1:8: expected a value, found ','"),
        ("a: {b}", "t.yaml:1:6: expected ':' after mapping key, found '}'"),
        ("a: {b: 1 c: 2}", "t.yaml:1:11: expected ',' or '}' in flow mapping, found ':'"),
        ("a: {[x]: 1}", "t.yaml:1:5: expected a mapping key, found '[' (collections cannot be keys)"),
        ("a: [|]", "t.yaml:1:5: literal block scalars (|) are not allowed inside flow collections"),
        ("a: [- x]", "t.yaml:1:5: block sequences are not allowed inside flow collections"),
        ("[1]\n[2]", "t.yaml:2:1: unexpected content after the document's root value"),
        // Literal block scalars.
        (
            "key: |x\n  text",
            "t.yaml:1:7: expected '-', '+', an indentation digit or the end of the line after '|', found 'x'"
        ),
        // Bytes and characters.
        ("a: 1\nb: \u{7}", "t.yaml:2:4: control character U+0007 is not allowed (use a \\u escape in double quotes)"),
        ("a: 1\rb: 2", "t.yaml:1:5: carriage return (CR) without a following line feed"),
        // Error recovery: every problem is reported, in order.
        (
            "a: &x 1\nb: ok\nc: *y\n\td: 1\ne: \"bad\\q\"",
            """
            t.yaml:1:4: anchors (&) are not supported
            t.yaml:3:4: aliases (*) are not supported
            t.yaml:4:1: tabs are not allowed for indentation
            t.yaml:5:8: invalid escape sequence '\\q' in double-quoted scalar
            """
        ),
        (
            "list:\n  - ok\n  - !tag x\n  - [1,\n  - fine\nmap:\n  a: 1\n  a: 2",
            """
            t.yaml:3:5: tags (!) are not supported
            t.yaml:5:3: block sequences are not allowed inside flow collections
            t.yaml:8:3: duplicate key 'a' (first defined at line 7, column 3)
            """
        ),
        (
            "a:\n  b: &x 1\n  c: 2\nd: *z",
            """
            t.yaml:2:6: anchors (&) are not supported
            t.yaml:4:4: aliases (*) are not supported
            """
        ),
    ]

    @Test(arguments: corpus)
    func reportsExactDiagnostics(text: String, expected: String) {
        #expect(diagnostics(text) == expected)
    }

    @Test func invalidUTF8IsPositioned() {
        let bytes: [UInt8] = Array("a: 1\nbé: ".utf8) + [0xFF, 0x41]
        #expect(
            throws: ScenarioDiagnostics([
                ScenarioDiagnostic(file: "u.yaml", line: 2, column: 5, message: "invalid UTF-8 byte sequence")
            ])
        ) {
            try ScenarioDocument.parse(bytes: bytes, file: "u.yaml")
        }
    }

    @Test func overlongAndSurrogateEncodingsAreInvalid() {
        for bytes: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            #expect(diagnostics(String(decoding: [], as: UTF8.self)) != "")
            #expect(throws: ScenarioDiagnostics.self) { try ScenarioDocument.parse(bytes: bytes, file: "u.yaml") }
        }
    }

    @Test func deepFlowNestingIsAnErrorNotACrash() {
        let text = String(repeating: "[", count: 10_000)
        #expect(diagnostics(text) == "t.yaml:1:65: nesting is too deep (the limit is 64 levels)")
    }

    @Test func deepBlockNestingIsAnError() {
        var text = ""
        for level in 0..<100 { text += String(repeating: " ", count: level) + "k\(level):\n" }
        text += String(repeating: " ", count: 100) + "leaf"
        #expect(diagnostics(text) == "t.yaml:65:65: nesting is too deep (the limit is 64 levels)")
    }

    @Test func deepSequenceNestingIsAnError() {
        let text = String(repeating: "- ", count: 100) + "x"
        #expect(diagnostics(text) == "t.yaml:1:129: nesting is too deep (the limit is 64 levels)")
    }

    @Test func oversizedInputIsRejectedBeforeParsing() {
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: ScenarioDocument.maximumSize + 1)
        #expect(
            throws: ScenarioDiagnostics([
                ScenarioDiagnostic(
                    file: "big.yaml", line: 1, column: 1,
                    message: "file is too large (4194305 bytes; the limit is 4194304)")
            ])
        ) {
            try ScenarioDocument.parse(bytes: bytes, file: "big.yaml")
        }
    }

    @Test func manyErrorsStopAtTheLimit() {
        let text = (1...200).map { "k\($0): &a x" }.joined(separator: "\n")
        let lines = diagnostics(text).split(separator: "\n")
        #expect(lines.count == ScenarioDocument.maximumDiagnostics + 1)
        #expect(lines.last == "t.yaml:50:6: too many errors; stopping here")
    }

    @Test func diagnosticRendersLikeACompiler() {
        let diagnostic = ScenarioDiagnostic(
            file: "s.yaml", line: 3, column: 7, message: "expected ':' after mapping key")
        #expect(diagnostic.description == "s.yaml:3:7: expected ':' after mapping key")
    }
}
