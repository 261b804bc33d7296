/// Why parsing of the current entry stopped.
struct ParseFailure: Error {
    /// The problem; already-recorded problems are not repeated here.
    var diagnostic: ScenarioDiagnostic
    /// A fatal failure ends the whole parse (too deep, too many errors, a second document);
    /// a non-fatal one is recorded and the parser resumes at the next entry.
    var isFatal: Bool
}

/// The recursive-descent parser behind `ScenarioDocument.parse`.
///
/// Invariant between block entries: `index` is at the start of a line (or at the end of the text).
/// All scanning is on Unicode scalars; columns are `index - lineStart + 1`.
struct Parser {
    let text: [Unicode.Scalar]
    let file: String
    var index = 0
    var line = 1
    var lineStart = 0
    var depth = 0
    var diagnostics: [ScenarioDiagnostic] = []

    init(text: [Unicode.Scalar], file: String) {
        self.text = text
        self.file = file
    }

    // MARK: Positions and failures

    var position: SourcePosition { SourcePosition(line: line, column: index - lineStart + 1) }

    func diagnostic(_ message: String, at position: SourcePosition) -> ScenarioDiagnostic {
        ScenarioDiagnostic(file: file, position: position, message: message)
    }

    func failure(_ message: String, at position: SourcePosition? = nil) -> ParseFailure {
        ParseFailure(diagnostic: diagnostic(message, at: position ?? self.position), isFatal: false)
    }

    func fatal(_ message: String, at position: SourcePosition? = nil) -> ParseFailure {
        ParseFailure(diagnostic: diagnostic(message, at: position ?? self.position), isFatal: true)
    }

    /// Records a problem and keeps going; stops the parse once there are too many.
    mutating func record(_ diagnostic: ScenarioDiagnostic) throws(ParseFailure) {
        diagnostics.append(diagnostic)
        if diagnostics.count >= ScenarioDocument.maximumDiagnostics {
            throw ParseFailure(
                diagnostic: self.diagnostic("too many errors; stopping here", at: diagnostic.position),
                isFatal: true
            )
        }
    }

    /// Records a non-fatal failure, or rethrows a fatal one.
    mutating func recover(from failure: ParseFailure) throws(ParseFailure) {
        if failure.isFatal { throw failure }
        try record(failure.diagnostic)
    }

    /// Enters one level of nesting; the caller must call `depth -= 1` on the way out.
    mutating func enterNesting(at position: SourcePosition) throws(ParseFailure) {
        depth += 1
        if depth > ScenarioDocument.maximumDepth {
            throw fatal("nesting is too deep (the limit is \(ScenarioDocument.maximumDepth) levels)", at: position)
        }
    }

    // MARK: Character access

    var isAtEnd: Bool { index >= text.count }

    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let i = index + offset
        return i < text.count ? text[i] : nil
    }

    /// Advances one scalar, keeping line bookkeeping right across `\n`.
    mutating func advance() {
        guard index < text.count else { return }
        if text[index] == "\n" {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    static func isBlank(_ c: Unicode.Scalar?) -> Bool { c == " " || c == "\t" }

    /// `true` for space, tab, line feed or the end of the text.
    static func isBreakOrBlank(_ c: Unicode.Scalar?) -> Bool { c == nil || c == " " || c == "\t" || c == "\n" }

    static func isFlowIndicator(_ c: Unicode.Scalar?) -> Bool {
        c == "," || c == "[" || c == "]" || c == "{" || c == "}"
    }

    func text(_ range: Range<Int>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: text[range])
        return String(view)
    }

    /// A short, printable rendering of the scalar at the cursor, for "found ..." messages.
    func describeCurrent() -> String {
        guard let c = peek() else { return "end of file" }
        if c == "\n" { return "end of line" }
        if c == "\t" { return "a tab" }
        return "'\(Character(c))'"
    }

    // MARK: Lines

    mutating func skipBlanks() {
        while Parser.isBlank(peek()) { index += 1 }
    }

    /// Moves to the start of the next line (or the end of the text).
    mutating func skipRestOfLine() {
        while let c = peek(), c != "\n" { index += 1 }
        advance()
    }

    /// After a value: allows trailing blanks and a comment, then moves to the next line.
    mutating func finishLine(after what: String) throws(ParseFailure) {
        let before = index
        skipBlanks()
        guard let c = peek(), c != "\n" else {
            advance()
            return
        }
        if c == "#" && index > before {
            skipRestOfLine()
            return
        }
        if c == ":" {
            throw failure("unexpected ':' after \(what) (a nested mapping must start on its own line)")
        }
        throw failure("unexpected \(describeCurrent()) after \(what)")
    }

    /// `true` if only blanks and maybe a comment remain on this line (from the cursor, which is after a blank
    /// or at the start of the content).
    func restOfLineIsEmpty(from start: Int) -> Bool {
        var i = start
        while i < text.count, Parser.isBlank(text[i]) { i += 1 }
        guard i < text.count else { return true }
        if text[i] == "\n" { return true }
        return text[i] == "#" && (i == start ? (i == lineStart || Parser.isBlank(text[i - 1])) : true)
    }

    /// From the start of a line, skips blank and comment-only lines and returns the indentation (number of
    /// leading spaces) of the next content line, leaving `index` at that line's start; `nil` at the end.
    ///
    /// Reports, and skips, lines indented with tabs and `%` directives; a second document is fatal.
    mutating func nextContentLine() throws(ParseFailure) -> Int? {
        while !isAtEnd {
            var spaces = 0
            while peek(spaces) == " " { spaces += 1 }
            let c = peek(spaces)
            if c == nil {
                index = text.count
                return nil
            }
            if c == "\n" || c == "#" {
                skipRestOfLine()
                continue
            }
            if c == "\t" {
                if !restOfLineIsEmpty(from: index + spaces) {
                    try record(
                        diagnostic(
                            "tabs are not allowed for indentation",
                            at: SourcePosition(line: line, column: spaces + 1)
                        ))
                }
                skipRestOfLine()
                continue
            }
            if spaces == 0 {
                if isMarker("-") {
                    throw fatal("multiple documents (---) are not supported")
                }
                if isMarker(".") {
                    throw fatal("document end markers (...) are not supported")
                }
                if c == "%" {
                    try record(diagnostic("directives (%) are not supported", at: position))
                    skipRestOfLine()
                    continue
                }
            }
            return spaces
        }
        return nil
    }

    /// `---` or `...` at the cursor followed by a blank or the end of the line.
    func isMarker(_ c: Unicode.Scalar) -> Bool {
        peek() == c && peek(1) == c && peek(2) == c && Parser.isBreakOrBlank(peek(3))
    }

    /// Skips lines that belong to a broken entry: the rest of this line and following lines indented
    /// more than `indent` (and blank or comment lines among them).
    mutating func skipEntry(deeperThan indent: Int) {
        skipRestOfLine()
        while !isAtEnd {
            var spaces = 0
            while peek(spaces) == " " { spaces += 1 }
            let c = peek(spaces)
            if c == "\n" || c == "#" || spaces > indent {
                skipRestOfLine()
            } else {
                return
            }
        }
    }
}
