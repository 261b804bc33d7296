import ScenarioFormat
import Testing

/// Documents inside the subset, each with its exact tree.
struct ValidDocumentTests {
    static let corpus: [(String, String)] = [
        ("a: 1", #"{p"a"@1:1: p"1"@1:4}@1:1"#),
        ("a: 1\nb: two words  # comment\n", #"{p"a"@1:1: p"1"@1:4, p"b"@2:1: p"two words"@2:4}@1:1"#),
        ("# leading comment\n\nkey: value\n", #"{p"key"@3:1: p"value"@3:6}@3:1"#),
        (
            "outer:\n  inner: x\n  other: y\nnext: z",
            #"{p"outer"@1:1: {p"inner"@2:3: p"x"@2:10, p"other"@3:3: p"y"@3:10}@2:3, p"next"@4:1: p"z"@4:7}@1:1"#
        ),
        ("- a\n- b\n", #"[p"a"@1:3, p"b"@2:3]@1:1"#),
        ("list:\n- a\n- b\nafter: 1", #"{p"list"@1:1: [p"a"@2:3, p"b"@3:3]@2:1, p"after"@4:1: p"1"@4:8}@1:1"#),
        ("list:\n  - a\n  -   b", #"{p"list"@1:1: [p"a"@2:5, p"b"@3:7]@2:3}@1:1"#),
        (
            "- name: x\n  age: 3\n- name: y",
            #"[{p"name"@1:3: p"x"@1:9, p"age"@2:3: p"3"@2:8}@1:3, {p"name"@3:3: p"y"@3:9}@3:3]@1:1"#
        ),
        ("- - a\n  - b\n- c", #"[[p"a"@1:5, p"b"@2:5]@1:3, p"c"@3:3]@1:1"#),
        ("-\n  a: 1", #"[{p"a"@2:3: p"1"@2:6}@2:3]@1:1"#),
        ("url: https://example.com:8443/x?a=b#frag", #"{p"url"@1:1: p"https://example.com:8443/x?a=b#frag"@1:6}@1:1"#),
        ("time: 12:30\nk: a:b", #"{p"time"@1:1: p"12:30"@1:7, p"k"@2:1: p"a:b"@2:4}@1:1"#),
        ("s: 'it''s'\nd: \"a\\tb\\u00e9\\\"\"", #"{p"s"@1:1: s"it\'s"@1:4, p"d"@2:1: d"a\tbé\""@2:4}@1:1"#),
        ("\"quoted key\": 1\n'single': 2", #"{d"quoted key"@1:1: p"1"@1:15, s"single"@2:1: p"2"@2:11}@1:1"#),
        ("f: [a, b, 'c d', \"e\"]", #"{p"f"@1:1: [p"a"@1:5, p"b"@1:8, s"c d"@1:11, d"e"@1:18]@1:4}@1:1"#),
        ("f: {first: Ann, last: Lee}", #"{p"f"@1:1: {p"first"@1:5: p"Ann"@1:12, p"last"@1:17: p"Lee"@1:23}@1:4}@1:1"#),
        (
            "f: [[1, 2], {a: [x]}, [], {}]",
            #"{p"f"@1:1: [[p"1"@1:6, p"2"@1:9]@1:5, {p"a"@1:14: [p"x"@1:18]@1:17}@1:13, []@1:23, {}@1:27]@1:4}@1:1"#
        ),
        ("f: [a, b, ]", #"{p"f"@1:1: [p"a"@1:5, p"b"@1:8]@1:4}@1:1"#),
        ("f: [\n  a,  # first\n  b\n]\ng: 1", #"{p"f"@1:1: [p"a"@2:3, p"b"@3:3]@1:4, p"g"@5:1: p"1"@5:4}@1:1"#),
        ("f: [http://x:1/y, a:b]", #"{p"f"@1:1: [p"http://x:1/y"@1:5, p"a:b"@1:19]@1:4}@1:1"#),
        ("---\na: 1", #"{p"a"@2:1: p"1"@2:4}@2:1"#),
        ("--- # comment\n- x", #"[p"x"@2:3]@2:1"#),
        ("just a scalar", #"p"just a scalar"@1:1"#),
        ("\"top\"", #"d"top"@1:1"#),
        ("  a: 1\n  b: 2", #"{p"a"@1:3: p"1"@1:6, p"b"@2:3: p"2"@2:6}@1:3"#),
        ("a:    spaced   \n", #"{p"a"@1:1: p"spaced"@1:7}@1:1"#),
        ("a:\tx", #"{p"a"@1:1: p"x"@1:4}@1:1"#),
        ("a: value#not-comment", #"{p"a"@1:1: p"value#not-comment"@1:4}@1:1"#),
        (
            "a: -5\nb: -x\nc: ?x\nd: :x",
            #"{p"a"@1:1: p"-5"@1:4, p"b"@2:1: p"-x"@2:4, p"c"@3:1: p"?x"@3:4, p"d"@4:1: p":x"@4:4}@1:1"#
        ),
        ("a: null\nb: ~", #"{p"a"@1:1: p"null"@1:4, p"b"@2:1: p"~"@2:4}@1:1"#),
        ("näme: wért\nx: y", #"{p"näme"@1:1: p"wért"@1:7, p"x"@2:1: p"y"@2:4}@1:1"#),
        ("\u{FEFF}a: 1\r\nb: 2\r\n", #"{p"a"@1:1: p"1"@1:4, p"b"@2:1: p"2"@2:4}@1:1"#),
        ("a: b, c [d]", #"{p"a"@1:1: p"b, c [d]"@1:4}@1:1"#),
        ("a:\n\n  # comment between\n  b: 1\n", #"{p"a"@1:1: {p"b"@4:3: p"1"@4:6}@4:3}@1:1"#),
    ]

    @Test(arguments: corpus)
    func parsesToExpectedTree(text: String, expected: String) {
        #expect(parseAndRender(text) == expected)
    }

    @Test func decodesEveryDoubleQuotedEscape() throws {
        let text = #"e: "\0\a\b\t\\#t\n\v\f\r\e\ \"\/\\\N\_\L\P\x41\u00e9\U0001F600\uD83D\uDE00""#
        let value = try root(text).mapping().required("e").string()
        #expect(value == "\u{0}\u{7}\u{8}\t\t\n\u{B}\u{C}\r\u{1B} \"/\\\u{85}\u{A0}\u{2028}\u{2029}Aé😀😀")
    }

    @Test func mappingKeepsSourceOrder() throws {
        let reader = try root("z: 1\na: 2\nm: 3").mapping()
        #expect(reader.keys == ["z", "a", "m"])
    }

    @Test func nodesCarryTheFileName() throws {
        let document = try ScenarioDocument.parse("a: [1]", file: "scenarios/x.yaml")
        let value = try document.root.mapping().required("a")
        #expect(value.file == "scenarios/x.yaml")
        #expect(document.file == "scenarios/x.yaml")
    }

    @Test func parsesFromBytes() throws {
        let document = try ScenarioDocument.parse(bytes: Array("k: v".utf8), file: "b.yaml")
        #expect(render(document.root) == #"{p"k"@1:1: p"v"@1:4}@1:1"#)
    }

    @Test func nestingUpToTheLimitIsAccepted() {
        let depth = ScenarioDocument.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(diagnostics(text) == "")
    }
}
