/// Literal block scalars: `|`, `|-`, `|+`, optionally with an indentation indicator (`|2`).
extension Parser {
    /// Parses the block scalar whose `|` is at the cursor. Its lines must be indented more than
    /// `parentIndent`; the first non-empty line sets the indentation unless an indicator gives it.
    mutating func parseLiteralBlockScalar(parentIndent: Int) throws(ParseFailure) -> Node {
        let start = position
        advance()
        var chomping: Unicode.Scalar? = nil
        var explicitIndent: Int? = nil
        for _ in 0..<2 {
            if let c = peek(), c == "-" || c == "+", chomping == nil {
                chomping = c
                advance()
            } else if let c = peek(), ("1"..."9").contains(c), explicitIndent == nil {
                explicitIndent = Int(c.value - 0x30)
                advance()
            }
        }
        let afterHeader = index
        skipBlanks()
        guard restOfLineIsEmpty(from: afterHeader), peek() != "#" || index > afterHeader else {
            throw failure(
                "expected '-', '+', an indentation digit or the end of the line after '|', found \(describeCurrent())")
        }
        skipRestOfLine()
        let contentIndent = explicitIndent.map { max(parentIndent, 0) + $0 } ?? detectIndent(parentIndent: parentIndent)
        var lines: [String] = []
        while !isAtEnd {
            var spaces = 0
            while peek(spaces) == " " { spaces += 1 }
            let lineEnd = endOfLine(from: index)
            let blank = (index + spaces..<lineEnd).allSatisfy { Parser.isBlank(text[$0]) }
            if spaces >= contentIndent && contentIndent > parentIndent {
                lines.append(text(index + contentIndent..<lineEnd))
            } else if blank {
                lines.append("")
            } else {
                break
            }
            index = lineEnd
            advance()
        }
        return Node(.scalar(chomp(lines, chomping), .literal), at: start, file: file)
    }

    /// The indentation of the first non-empty line, or `parentIndent + 1` if there is none.
    func detectIndent(parentIndent: Int) -> Int {
        var i = index
        while i < text.count {
            var spaces = 0
            while i + spaces < text.count, text[i + spaces] == " " { spaces += 1 }
            if i + spaces < text.count, text[i + spaces] != "\n" {
                return spaces > parentIndent ? spaces : parentIndent + 1
            }
            i = i + spaces + 1
        }
        return parentIndent + 1
    }

    func endOfLine(from start: Int) -> Int {
        var i = start
        while i < text.count, text[i] != "\n" { i += 1 }
        return i
    }

    /// Applies chomping: clip keeps one final line break, `-` strips all, `+` keeps all.
    func chomp(_ lines: [String], _ chomping: Unicode.Scalar?) -> String {
        var content = lines
        var trailingEmpty = 0
        while let last = content.last, last.isEmpty {
            content.removeLast()
            trailingEmpty += 1
        }
        if content.isEmpty {
            return chomping == "+" ? String(repeating: "\n", count: trailingEmpty) : ""
        }
        let body = content.joined(separator: "\n")
        switch chomping {
        case "-": return body
        case "+": return body + "\n" + String(repeating: "\n", count: trailingEmpty)
        default: return body + "\n"
        }
    }
}
