/// Block structure: mappings and sequences laid out by indentation.
extension Parser {
    /// Parses the block node whose first character is at the cursor (possibly mid-line, after `- `).
    ///
    /// - Parameters:
    ///   - indent: the cursor's column minus one; the indentation of a collection starting here.
    ///   - parentIndent: the indentation of the enclosing collection (-1 at the top level); a literal
    ///     block scalar's lines must be indented more than this.
    mutating func parseBlockNode(indent: Int, parentIndent: Int) throws(ParseFailure) -> Node {
        if isSequenceEntryIndicator() {
            try enterNesting(at: position)
            defer { depth -= 1 }
            return try parseBlockSequence(indent: indent, indentless: false)
        }
        if lineHasMappingKey() {
            try enterNesting(at: position)
            defer { depth -= 1 }
            return try parseBlockMapping(indent: indent)
        }
        return try parseLineValue(parentIndent: parentIndent)
    }

    /// `-` followed by a blank, a line break or the end of the text.
    func isSequenceEntryIndicator() -> Bool {
        peek() == "-" && Parser.isBreakOrBlank(peek(1))
    }

    /// Looks ahead on the current line for `key:` followed by a blank or the end of the line.
    func lineHasMappingKey() -> Bool {
        guard let first = peek(), first != "[", first != "{", first != "#" else { return false }
        var i = index
        if first == "\"" || first == "'" {
            guard let end = quotedScalarEnd(from: index) else { return false }
            i = end
            while i < text.count, Parser.isBlank(text[i]) { i += 1 }
            return i < text.count && text[i] == ":" && (i + 1 == text.count || Parser.isBreakOrBlank(text[i + 1]))
        }
        while i < text.count, text[i] != "\n" {
            if text[i] == ":" && (i + 1 == text.count || Parser.isBreakOrBlank(text[i + 1])) { return true }
            if text[i] == "#" && i > index && Parser.isBlank(text[i - 1]) { return false }
            i += 1
        }
        return false
    }

    /// The index just past the closing quote of the quoted scalar opening at `start`, if it closes on
    /// the same line.
    func quotedScalarEnd(from start: Int) -> Int? {
        let quote = text[start]
        var i = start + 1
        while i < text.count, text[i] != "\n" {
            if quote == "\"" && text[i] == "\\" {
                i += (i + 1 < text.count && text[i + 1] != "\n") ? 2 : 1
                continue
            }
            if text[i] == quote {
                if quote == "'" && i + 1 < text.count && text[i + 1] == "'" {
                    i += 2
                    continue
                }
                return i + 1
            }
            i += 1
        }
        return nil
    }

    /// Parses a block mapping whose first key is at the cursor, in column `indent + 1`.
    mutating func parseBlockMapping(indent: Int) throws(ParseFailure) -> Node {
        let start = position
        var entries: [MappingEntry] = []
        var seen: [String: SourcePosition] = [:]
        while true {
            do throws(ParseFailure) {
                if let entry = try parseBlockMappingEntry(indent: indent) {
                    if let first = seen[entry.keyText] {
                        try record(
                            entry.key.diagnostic(
                                "duplicate key '\(entry.keyText)' (first defined at line \(first.line), column \(first.column))"
                            ))
                    } else {
                        seen[entry.keyText] = entry.key.position
                        entries.append(entry)
                    }
                }
            } catch {
                try recover(from: error)
                skipEntry(deeperThan: indent)
            }
            guard try moveToSibling(indent: indent, inSequence: false) else { break }
        }
        return Node(.mapping(entries), at: start, file: file)
    }

    /// Parses `key: value` at the cursor; returns `nil` (after recording why) if the value is missing.
    mutating func parseBlockMappingEntry(indent: Int) throws(ParseFailure) -> MappingEntry? {
        if isSequenceEntryIndicator() {
            throw failure(
                "expected a mapping key, found a sequence entry '-' (a block cannot mix mapping keys and sequence entries)"
            )
        }
        let key = try parseKey(flow: false)
        skipBlanks()
        guard peek() == ":" else {
            if case .scalar(let text, .plain) = key.kind, text.contains(":") {
                throw failure(
                    "expected ':' after mapping key (a ':' inside a key must be followed by a space to end the key)")
            }
            throw failure("expected ':' after mapping key")
        }
        advance()
        guard Parser.isBreakOrBlank(peek()) else {
            throw failure("expected a space after ':'")
        }
        skipBlanks()
        if restOfLineIsEmpty(from: index) {
            skipRestOfLine()
            guard let value = try parseNestedBlockValue(indent: indent, allowIndentlessSequence: true) else {
                try record(key.diagnostic("missing value for key '\(keyText(key))'"))
                return nil
            }
            return MappingEntry(key: key, value: value)
        }
        if isSequenceEntryIndicator() {
            throw failure("a block sequence cannot start on the same line as its key; start it on the next line")
        }
        let value = try parseLineValue(parentIndent: indent)
        return MappingEntry(key: key, value: value)
    }

    /// The value on the lines after `key:` or `-`: a block node indented more than `indent`, or (after a
    /// key) a sequence at the key's own indentation. `nil` if there is none.
    mutating func parseNestedBlockValue(indent: Int, allowIndentlessSequence: Bool) throws(ParseFailure) -> Node? {
        guard let next = try nextContentLine() else { return nil }
        if next > indent {
            index += next
            return try parseBlockNode(indent: next, parentIndent: indent)
        }
        if next == indent && allowIndentlessSequence && peek(next) == "-" && Parser.isBreakOrBlank(peek(next + 1)) {
            index += next
            try enterNesting(at: position)
            defer { depth -= 1 }
            return try parseBlockSequence(indent: indent, indentless: true)
        }
        return nil
    }

    /// Parses a block sequence whose first `-` is at the cursor, in column `indent + 1`.
    ///
    /// An indentless sequence (the value of a key at the same indentation) ends at the first line that
    /// is not a `-` entry instead of reporting it.
    mutating func parseBlockSequence(indent: Int, indentless: Bool) throws(ParseFailure) -> Node {
        let start = position
        var items: [Node] = []
        while true {
            do throws(ParseFailure) {
                if let item = try parseBlockSequenceEntry(indent: indent) { items.append(item) }
            } catch {
                try recover(from: error)
                skipEntry(deeperThan: indent)
            }
            guard try moveToSibling(indent: indent, inSequence: true, indentless: indentless) else { break }
        }
        return Node(.sequence(items), at: start, file: file)
    }

    /// Parses `- value` at the cursor; returns `nil` (after recording why) if the value is missing.
    mutating func parseBlockSequenceEntry(indent: Int) throws(ParseFailure) -> Node? {
        guard isSequenceEntryIndicator() else {
            if lineHasMappingKey() {
                throw failure(
                    "expected a sequence entry '- ', found a mapping key (a block cannot mix sequence entries and mapping keys)"
                )
            }
            throw failure("expected a sequence entry '- '")
        }
        let dash = position
        advance()
        skipBlanks()
        if restOfLineIsEmpty(from: index) {
            skipRestOfLine()
            guard let value = try parseNestedBlockValue(indent: indent, allowIndentlessSequence: false) else {
                try record(diagnostic("missing value for sequence entry", at: dash))
                return nil
            }
            return value
        }
        return try parseBlockNode(indent: index - lineStart, parentIndent: indent)
    }

    /// After an entry, finds the next line of the same collection and moves the cursor to its content.
    ///
    /// Returns `false` when the collection ends (a less indented line, the end of the text, or, for an
    /// indentless sequence, a line that is not a `-` entry). Reports more deeply indented lines.
    mutating func moveToSibling(indent: Int, inSequence: Bool, indentless: Bool = false) throws(ParseFailure) -> Bool {
        while true {
            guard let next = try nextContentLine(), next >= indent else { return false }
            if next > indent {
                try record(
                    diagnostic(
                        "bad indentation: expected \(indent) spaces, found \(next)",
                        at: SourcePosition(line: line, column: next + 1)
                    ))
                skipEntry(deeperThan: indent)
                continue
            }
            if indentless && !(peek(next) == "-" && Parser.isBreakOrBlank(peek(next + 1))) { return false }
            index += next
            return true
        }
    }

    func keyText(_ key: Node) -> String {
        if case .scalar(let text, _) = key.kind { return text }
        return ""
    }
}
