/// Flow collections: `[a, b]` and `{key: value}`, nested freely (so JSON documents parse).
extension Parser {
    /// Parses the flow sequence or mapping opening at the cursor (`[` or `{`).
    mutating func parseFlowCollection() throws(ParseFailure) -> Node {
        let start = position
        try enterNesting(at: start)
        defer { depth -= 1 }
        let isSequence = peek() == "["
        advance()
        return isSequence ? try parseFlowSequenceItems(start: start) : try parseFlowMappingEntries(start: start)
    }

    mutating func parseFlowSequenceItems(start: SourcePosition) throws(ParseFailure) -> Node {
        var items: [Node] = []
        while true {
            try skipFlowSpace(unterminated: "flow sequence", closing: "]", start: start)
            if peek() == "]" { break }
            items.append(try parseFlowNode())
            try skipFlowSpace(unterminated: "flow sequence", closing: "]", start: start)
            if peek() == "," {
                advance()
                continue
            }
            if peek() == "]" { break }
            throw failure("expected ',' or ']' in flow sequence, found \(describeCurrent())")
        }
        advance()
        return Node(.sequence(items), at: start, file: file)
    }

    mutating func parseFlowMappingEntries(start: SourcePosition) throws(ParseFailure) -> Node {
        var entries: [MappingEntry] = []
        var seen: [String: SourcePosition] = [:]
        while true {
            try skipFlowSpace(unterminated: "flow mapping", closing: "}", start: start)
            if peek() == "}" { break }
            let key = try parseKey(flow: true)
            try skipFlowSpace(unterminated: "flow mapping", closing: "}", start: start)
            guard peek() == ":" else { throw failure("expected ':' after mapping key, found \(describeCurrent())") }
            advance()
            try skipFlowSpace(unterminated: "flow mapping", closing: "}", start: start)
            let entry = MappingEntry(key: key, value: try parseFlowNode())
            if let first = seen[entry.keyText] {
                try record(
                    key.diagnostic(
                        "duplicate key '\(entry.keyText)' (first defined at line \(first.line), column \(first.column))"
                    ))
            } else {
                seen[entry.keyText] = key.position
                entries.append(entry)
            }
            try skipFlowSpace(unterminated: "flow mapping", closing: "}", start: start)
            if peek() == "," {
                advance()
                continue
            }
            if peek() == "}" { break }
            throw failure("expected ',' or '}' in flow mapping, found \(describeCurrent())")
        }
        advance()
        return Node(.mapping(entries), at: start, file: file)
    }

    /// Parses one value inside a flow collection.
    mutating func parseFlowNode() throws(ParseFailure) -> Node {
        switch peek() {
        case "[", "{": return try parseFlowCollection()
        case "\"", "'": return try parseQuotedScalar()
        case "|": throw failure("literal block scalars (|) are not allowed inside flow collections")
        default: return try parsePlainScalar(flow: true, key: false)
        }
    }

    /// Skips spaces, tabs, line breaks and comments between flow tokens; the end of the text is an error.
    mutating func skipFlowSpace(unterminated what: String, closing: String, start: SourcePosition) throws(ParseFailure)
    {
        while let c = peek() {
            if c == " " || c == "\t" || c == "\n" {
                advance()
            } else if c == "#" && (index == lineStart || Parser.isBlank(text[index - 1]) || text[index - 1] == "\n") {
                while let d = peek(), d != "\n" { index += 1 }
            } else {
                if index == lineStart && (isMarker("-") || isMarker(".")) {
                    throw fatal(
                        "unterminated \(what) (missing '\(closing)'); a document marker cannot appear inside it",
                        at: start)
                }
                return
            }
        }
        throw failure("unterminated \(what) (missing '\(closing)')", at: start)
    }
}
