/// One problem in a scenario file, rendered as `file:line:column: message`.
public struct ScenarioDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file name as given to the parser (used only for rendering).
    public var file: String
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column of the problem, in Unicode scalars.
    public var column: Int
    /// What was wrong, usually phrased as what was expected.
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public init(file: String, position: SourcePosition, message: String) {
        self.init(file: file, line: position.line, column: position.column, message: message)
    }

    /// The position of the problem.
    public var position: SourcePosition { SourcePosition(line: line, column: column) }

    /// `file:line:column: message`, the format editors and compilers use.
    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// Every problem found in a scenario file, in source order.
public struct ScenarioDiagnostics: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, sorted by position; never empty when thrown.
    public var diagnostics: [ScenarioDiagnostic]

    public init(_ diagnostics: [ScenarioDiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// One diagnostic per line.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
