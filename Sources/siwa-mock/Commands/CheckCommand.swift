/// `siwa-mock check FILE...`: validates scenario files and prints every problem.
struct CheckCommand: Command {
    static let name = "check"
    static let abstract = "Validate scenario files; print every problem as file:line:col: message."
    static let discussion: String? = """
        Each file is parsed and loaded exactly as `serve --scenario` would (PEM files are read and parsed,
        but missing signing keys are not generated). Valid files print `FILE: ok: ` and a summary on stdout:
        what the file defines, and what it takes from the built-in scenario (a file without `teams:` and
        `clients:` gets the built-in team, clients and app group; without `users:` alice, bob and carol;
        without `signing_keys:` the two fixed test keys). Problems go to stderr, all of them, sorted by
        position. Exit status 0 when every file is valid, 1 otherwise.
        """
    static let options: [OptionSpec] = []
    static let positionalsSynopsis: String? = "<file> ..."

    var files: [String]

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else { throw UsageError("Expected at least one scenario <file>") }
        files = arguments.positionals
    }

    func run() throws -> Int32 {
        let console = Console()
        var failed = false
        for file in files {
            do {
                let scenario = try ScenarioFile.load(file, generateMissingKeys: false)
                console.out("\(file): ok: \(scenario.summary)")
            } catch {
                failed = true
                for line in error.lines { console.err(line) }
            }
        }
        return failed ? 1 : 0
    }
}
