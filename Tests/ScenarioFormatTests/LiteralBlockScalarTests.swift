import ScenarioFormat
import Testing

/// Literal block scalars (`|`, `|-`, `|+`, `|N`), mainly for PEM keys.
struct LiteralBlockScalarTests {
    static let pem = """
        -----BEGIN PRIVATE KEY-----
        MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQgevZzL1gdAFr88hb2
        OF/2NxApJCzGCEDdfSp6VQO30hyhRANCAAQRWz+jn65BtOMvdyHKcvjBeBSDZH2r
        1RTwjmYSi9R/zpBnuQ4EiMnCqfMPWiZqB4QdbAd0E7oH50VpuZ1P087G
        -----END PRIVATE KEY-----

        """

    @Test func keepsAPEMKeyExactly() throws {
        let indented = Self.pem.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n")
        let text = "keys:\n  - kid: KEY1234567\n    pem: |\n" + indented + "\n    team: ABCDE12345\n"
        let key = try root(text).mapping().required("keys").sequence()[0].mapping()
        #expect(try key.required("pem").string() == Self.pem)
        #expect(try key.required("team").string() == "ABCDE12345")
        #expect(try key.required("pem").position == SourcePosition(line: 3, column: 10))
    }

    static let chomping: [(String, String)] = [
        ("a: |\n  x\n  y\n\n\nb: 1", #"{p"a"@1:1: l"x\ny\n"@1:4, p"b"@6:1: p"1"@6:4}@1:1"#),
        ("a: |-\n  x\n\nb: 1", #"{p"a"@1:1: l"x"@1:4, p"b"@4:1: p"1"@4:4}@1:1"#),
        ("a: |+\n  x\n\n\nb: 1", #"{p"a"@1:1: l"x\n\n\n"@1:4, p"b"@5:1: p"1"@5:4}@1:1"#),
        (
            "a: |  # comment\n    indented\n      more\n    # not a comment\n",
            #"{p"a"@1:1: l"indented\n  more\n# not a comment\n"@1:4}@1:1"#
        ),
        ("a: |2\n    two extra\n  base", #"{p"a"@1:1: l"  two extra\nbase\n"@1:4}@1:1"#),
        ("a: |\nb: 1", #"{p"a"@1:1: l""@1:4, p"b"@2:1: p"1"@2:4}@1:1"#),
        ("- |\n  x\n- |-\n  y", #"[l"x\n"@1:3, l"y"@3:3]@1:1"#),
        ("a: |\n  \tkeeps tab\n", #"{p"a"@1:1: l"\tkeeps tab\n"@1:4}@1:1"#),
        ("|\nline one\nline two", #"l"line one\nline two\n"@1:1"#),
    ]

    @Test(arguments: chomping)
    func appliesChompingAndIndentation(text: String, expected: String) {
        #expect(parseAndRender(text) == expected)
    }

    @Test func aLessIndentedTabLineEndsTheScalarAndIsReported() {
        #expect(diagnostics("a: |\n  x\n\ty\n") == "t.yaml:3:1: tabs are not allowed for indentation")
    }
}
