/// A parsed scenario file: the first stage of the scenario language (text → ``Node`` tree).
///
/// The syntax is a strict subset of YAML 1.2 that also accepts JSON; anything outside it is an error,
/// never a guess. `docs/scenarios.md` ("Syntax") has the same rules with examples.
///
/// **Accepted**
/// - Block mappings (`key: value`, a space after `:`) and block sequences (`- item`), nested by
///   indentation with spaces. A sequence may sit at its key's indentation (`key:` then `- a`).
///   A `- ` entry may hold a compact mapping (`- name: x` then `  age: 3`) or sequence (`- - a`).
/// - Flow sequences `[a, b]` and flow mappings `{first: Ann}`, nested freely and spanning lines
///   (inside them, tabs, line breaks and comments are white space). A trailing comma is allowed.
///   In flow mappings a quoted key may be followed directly by `:` (JSON's `{"a":1}`).
/// - Plain scalars (one line; end at ` #` or at `: `), single-quoted (`''` is a quote) and
///   double-quoted scalars (one line; escapes `\0 \a \b \t \n \v \f \r \e \  \" \/ \\ \N \_ \L \P
///   \xXX \uXXXX \UXXXXXXXX`, with `\uD83D\uDE00` surrogate pairs combined).
/// - Literal block scalars `|`, `|-` (strip), `|+` (keep), with an optional indentation digit 1–9
///   relative to the parent's indentation; lines end with `\n`.
/// - Comments: `#` at the start of a line or after a space or tab.
/// - A single `---` line before the content. A UTF-8 byte order mark. CRLF line ends.
///
/// **Rejected with a diagnostic**: anchors `&`, aliases `*`, tags `!`, directives `%`, complex keys
/// `?`, folded scalars `>`, multiple documents (`---` after content) and `...`, tabs in indentation,
/// duplicate keys, a key without a value, inconsistent indentation, a mapping key and a sequence
/// entry at the same level, multi-line plain or quoted scalars, text after a flow collection or quoted
/// scalar, an empty document, invalid UTF-8, control characters, a lone CR, more than
/// ``maximumDepth`` levels of nesting and inputs over ``maximumSize`` bytes.
///
/// Scalars stay text (`null`, `~` and empty values are not special, and there is no implicit typing);
/// the typed readers on ``Node`` (`int()`, `bool()`, `duration()`, …) give them meaning.
/// Positions are 1-based lines and columns counted in Unicode scalars.
package struct ScenarioDocument: Sendable, Hashable {
    /// The largest accepted input, 4 MiB.
    package static let maximumSize = 4 * 1024 * 1024
    /// The deepest accepted nesting of collections.
    package static let maximumDepth = 64
    /// Parsing stops after this many diagnostics.
    package static let maximumDiagnostics = 50

    /// The root node.
    package var root: Node
    /// The file name used in diagnostics.
    package var file: String

    /// Parses UTF-8 bytes.
    ///
    /// - Parameter file: the name to print in diagnostics (`file:line:column: message`).
    /// - Throws: every problem found, in source order.
    package static func parse(bytes: some Collection<UInt8>, file: String) throws(ScenarioDiagnostics)
        -> ScenarioDocument
    {
        guard bytes.count <= maximumSize else {
            throw ScenarioDiagnostics([
                ScenarioDiagnostic(
                    file: file, line: 1, column: 1,
                    message: "file is too large (\(bytes.count) bytes; the limit is \(maximumSize))"
                )
            ])
        }
        switch SourceText.decode(bytes, file: file) {
        case .failure(let diagnostic):
            throw ScenarioDiagnostics([diagnostic])
        case .success(let source):
            var parser = Parser(text: source.scalars, file: file)
            return try parser.parseDocument()
        }
    }

    /// Parses a string.
    package static func parse(_ text: String, file: String) throws(ScenarioDiagnostics) -> ScenarioDocument {
        try parse(bytes: Array(text.utf8), file: file)
    }
}

extension Parser {
    /// Parses the whole text as one document.
    mutating func parseDocument() throws(ScenarioDiagnostics) -> ScenarioDocument {
        var root: Node?
        do throws(ParseFailure) {
            root = try parseRoot()
        } catch {
            diagnostics.append(error.diagnostic)
        }
        if let root, diagnostics.isEmpty { return ScenarioDocument(root: root, file: file) }
        throw ScenarioDiagnostics(sortedDiagnostics())
    }

    func sortedDiagnostics() -> [ScenarioDiagnostic] {
        diagnostics.enumerated().sorted { a, b in
            a.element.position == b.element.position ? a.offset < b.offset : a.element.position < b.element.position
        }.map(\.element)
    }

    mutating func parseRoot() throws(ParseFailure) -> Node? {
        var indent = try firstContentLine()
        if indent == 0 && isMarker("-") {
            index += 3
            try finishLine(after: "'---' (content must start on the next line)")
            indent = try nextContentLine()
        }
        guard let indent else { throw failure("the document is empty", at: SourcePosition(line: 1, column: 1)) }
        index += indent
        let isBlockCollection = isSequenceEntryIndicator() || lineHasMappingKey()
        var root: Node?
        do throws(ParseFailure) {
            root = try parseBlockNode(indent: indent, parentIndent: -1)
        } catch {
            try recover(from: error)
            skipEntry(deeperThan: indent)
        }
        if let next = try nextContentLine() {
            try record(
                diagnostic(
                    isBlockCollection
                        ? "bad indentation: expected \(indent) spaces, found \(next)"
                        : "unexpected content after the document's root value",
                    at: SourcePosition(line: line, column: next + 1)
                ))
        }
        return root
    }

    /// Like `nextContentLine`, but a `---` at the very start is returned as content (indent 0).
    mutating func firstContentLine() throws(ParseFailure) -> Int? {
        while !isAtEnd {
            var spaces = 0
            while peek(spaces) == " " { spaces += 1 }
            let c = peek(spaces)
            if c == "\n" || c == "#" {
                skipRestOfLine()
                continue
            }
            if spaces == 0 && isMarker("-") { return 0 }
            if spaces == 0 && c == "%" {
                try record(diagnostic("directives (%) are not supported", at: position))
                skipRestOfLine()
                continue
            }
            return try nextContentLine()
        }
        return nil
    }
}
