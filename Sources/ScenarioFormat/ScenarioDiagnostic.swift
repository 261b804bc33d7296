/// One problem in a scenario file, rendered as `file:line:column: message`.
package struct ScenarioDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file name as given to the parser (used only for rendering).
    package var file: String
    /// The 1-based line of the problem.
    package var line: Int
    /// The 1-based column of the problem, in Unicode scalars.
    package var column: Int
    /// What was wrong, usually phrased as what was expected.
    package var message: String

    package init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    package init(file: String, position: SourcePosition, message: String) {
        self.init(file: file, line: position.line, column: position.column, message: message)
    }

    /// The position of the problem.
    package var position: SourcePosition { SourcePosition(line: line, column: column) }

    /// `file:line:column: message`, the format editors and compilers use.
    package var description: String { "\(file):\(line):\(column): \(message)" }
}

/// Every problem found in a scenario file, in source order.
package struct ScenarioDiagnostics: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, sorted by position; never empty when thrown.
    package var diagnostics: [ScenarioDiagnostic]

    package init(_ diagnostics: [ScenarioDiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// One diagnostic per line.
    package var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
