/// Scalars on one line: plain, single-quoted and double-quoted, and the value that ends a block line.
extension Parser {
    /// Parses the value that fills the rest of a block line (a scalar, a flow collection or a literal
    /// block scalar) and moves to the next line.
    mutating func parseLineValue(parentIndent: Int) throws(ParseFailure) -> Node {
        switch peek() {
        case "[":
            let node = try parseFlowCollection()
            try finishLine(after: "the flow sequence")
            return node
        case "{":
            let node = try parseFlowCollection()
            try finishLine(after: "the flow mapping")
            return node
        case "|":
            return try parseLiteralBlockScalar(parentIndent: parentIndent)
        case "\"", "'":
            let node = try parseQuotedScalar()
            try finishLine(after: "the quoted scalar")
            return node
        default:
            let node = try parsePlainScalar(flow: false, key: false)
            try finishLine(after: "the value")
            return node
        }
    }

    /// Parses a mapping key: a quoted scalar or a plain scalar that ends before `: `.
    mutating func parseKey(flow: Bool) throws(ParseFailure) -> Node {
        switch peek() {
        case "\"", "'":
            return try parseQuotedScalar()
        case "[", "{":
            throw failure("expected a mapping key, found \(describeCurrent()) (collections cannot be keys)")
        case ":":
            throw failure("expected a mapping key before ':'")
        default:
            return try parsePlainScalar(flow: flow, key: true)
        }
    }

    /// Rejects characters YAML reserves at the start of a plain scalar, naming the unsupported feature.
    func checkPlainScalarStart(flow: Bool, key: Bool) throws(ParseFailure) {
        guard let c = peek(), c != "\n" else {
            throw failure(key ? "expected a mapping key" : "expected a value, found \(describeCurrent())")
        }
        let next = peek(1)
        let followedBySpace = Parser.isBreakOrBlank(next) || (flow && Parser.isFlowIndicator(next))
        switch c {
        case "&": throw failure("anchors (&) are not supported")
        case "*": throw failure("aliases (*) are not supported")
        case "!": throw failure("tags (!) are not supported")
        case ">": throw failure("folded block scalars (>) are not supported; use a literal block scalar (|)")
        case "|": throw failure("a literal block scalar (|) is not allowed here")
        case "%": throw failure("'%' cannot start a plain scalar; quote the value")
        case "@", "`": throw failure("'\(Character(c))' is reserved and cannot start a plain scalar; quote the value")
        case "?" where followedBySpace: throw failure("complex keys (?) are not supported")
        case "-" where followedBySpace:
            throw failure(
                flow ? "block sequences are not allowed inside flow collections" : "expected a value, found '-'")
        case ":" where followedBySpace: throw failure("expected a value, found ':'")
        case ",", "]", "}": throw failure("expected a value, found '\(Character(c))'")
        case "#": throw failure("expected a value, found a comment")
        default: return
        }
    }

    /// Parses a plain scalar. It ends at a line break, at ` #`, at `:` followed by a blank (or a flow
    /// indicator in flow context), and in flow context at `,` `[` `]` `{` `}`. Trailing blanks are dropped.
    mutating func parsePlainScalar(flow: Bool, key: Bool) throws(ParseFailure) -> Node {
        try checkPlainScalarStart(flow: flow, key: key)
        let start = position
        let first = index
        var end = index
        while let c = peek(), c != "\n" {
            if c == ":" {
                let next = peek(1)
                if Parser.isBreakOrBlank(next) || (flow && Parser.isFlowIndicator(next)) { break }
            } else if c == "#" {
                if index > first && Parser.isBlank(text[index - 1]) { break }
            } else if flow && Parser.isFlowIndicator(c) {
                break
            }
            index += 1
            if !Parser.isBlank(c) { end = index }
        }
        index = end
        return Node(.scalar(text(first..<end), .plain), at: start, file: file)
    }

    /// Parses a single- or double-quoted scalar that must close on the same line.
    mutating func parseQuotedScalar() throws(ParseFailure) -> Node {
        let start = position
        let quote = peek()!
        guard let end = quotedScalarEnd(from: index) else {
            let kind = quote == "\"" ? "double" : "single"
            throw failure(
                "unterminated \(kind)-quoted scalar (missing closing \(quote == "\"" ? "'\"'" : "\"'\"") on this line)")
        }
        if quote == "'" {
            var result = String.UnicodeScalarView()
            var i = index + 1
            while i < end - 1 {
                result.append(text[i])
                i += text[i] == "'" ? 2 : 1
            }
            index = end
            return Node(.scalar(String(result), .singleQuoted), at: start, file: file)
        }
        advance()
        var result = String.UnicodeScalarView()
        while index < end - 1 {
            let c = text[index]
            if c == "\\" {
                result.append(try parseEscape(limit: end - 1))
            } else {
                result.append(c)
                index += 1
            }
        }
        index = end
        return Node(.scalar(String(result), .doubleQuoted), at: start, file: file)
    }
}
