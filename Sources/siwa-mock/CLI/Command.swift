/// A subcommand: a type with a description, declared options, separate validation and running —
/// the shape swift-argument-parser gives commands.
protocol Command: Sendable {
    static var name: String { get }
    static var abstract: String { get }
    /// Extra paragraphs for `--help` (examples, notes).
    static var discussion: String? { get }
    static var options: [OptionSpec] { get }
    /// Placeholder for positional arguments in the usage line (`<file> ...`), nil when none are taken.
    static var positionalsSynopsis: String? { get }

    /// Builds the command from parsed arguments; reports every malformed value as a `UsageError`.
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// Runs it; returns the process exit status.
    func run() throws -> Int32
}

extension Command {
    static var discussion: String? { nil }
    static var positionalsSynopsis: String? { nil }
}
