/// Dispatches `argv` to a subcommand, prints help and errors, and maps failures to exit statuses:
/// 0 success, 1 runtime failure, 64 usage error.
struct CommandLineTool {
    static let name = "siwa-mock"
    static let abstract = "A scriptable fake of Apple's Sign in with Apple server."
    /// Every subcommand, in the order `--help` lists them.
    static let allCommands: [any Command.Type] = [
        ServeCommand.self, CheckCommand.self, HealthCommand.self, CACommand.self, ClientSecretCommand.self,
        KeygenCommand.self, VerifyCommand.self, SigninCommand.self, CredentialCommand.self, NotifyCommand.self,
        RPCheckCommand.self,
        ClockCommand.self, RequestsCommand.self, MailCommand.self, ResetCommand.self, UsersCommand.self,
        KeysCommand.self, FaultsCommand.self, AASACommand.self,
    ]

    var commands: [any Command.Type]
    var defaultCommand: String
    var environment: [String: String]
    var console: Console

    func run(_ argv: [String]) -> Int32 {
        var arguments = Array(argv.dropFirst())
        if arguments.first == "--version" {
            console.out(Version.string)
            return 0
        }
        if arguments.first == "-h" || arguments.first == "--help" {
            console.out(
                HelpFormatter.toolHelp(
                    toolName: Self.name, abstract: Self.abstract, commands: commands, defaultCommand: defaultCommand),
                terminator: "")
            return 0
        }
        if arguments.first == "help" {
            arguments.removeFirst()
            guard let name = arguments.first else {
                console.out(
                    HelpFormatter.toolHelp(
                        toolName: Self.name, abstract: Self.abstract, commands: commands, defaultCommand: defaultCommand
                    ), terminator: "")
                return 0
            }
            guard let command = commands.first(where: { $0.name == name }) else {
                return usageFailure(UsageError("Unknown subcommand '\(name)'" + suggestion(name)), command: nil)
            }
            console.out(HelpFormatter.help(for: command, toolName: Self.name), terminator: "")
            return 0
        }
        let command: any Command.Type
        if let first = arguments.first, !first.hasPrefix("-") {
            guard let found = commands.first(where: { $0.name == first }) else {
                return usageFailure(UsageError("Unknown subcommand '\(first)'" + suggestion(first)), command: nil)
            }
            command = found
            arguments.removeFirst()
        } else {
            command = commands.first { $0.name == defaultCommand }!
        }
        if arguments.contains("-h") || arguments.contains("--help") {
            console.out(HelpFormatter.help(for: command, toolName: Self.name), terminator: "")
            return 0
        }
        let instance: any Command
        do {
            let parser = ArgumentParser(
                options: command.options, acceptsPositionals: command.positionalsSynopsis != nil)
            instance = try command.init(try parser.parse(arguments, environment: environment))
        } catch {
            return usageFailure(error, command: command)
        }
        do {
            return try instance.run()
        } catch let error as UsageError {
            return usageFailure(error, command: command)
        } catch let error as RuntimeError {
            console.err("Error: \(error.message)")
            return 1
        } catch {
            console.err("Error: \(error)")
            return 1
        }
    }

    private func usageFailure(_ error: UsageError, command: (any Command.Type)?) -> Int32 {
        console.err("Error: \(error.message)")
        if let command {
            console.err("Usage: \(HelpFormatter.usage(of: command, toolName: Self.name))")
            console.err("  See '\(Self.name) \(command.name) --help' for more information.")
        } else {
            console.err("  See '\(Self.name) --help' for the list of subcommands.")
        }
        return 64
    }

    private func suggestion(_ name: String) -> String {
        Self.suggestion(for: name, among: commands.map { $0.name })
    }

    /// Words other tools use for starting a server, which no spelling distance leads to `serve`.
    static let synonyms = ["start": "serve", "run": "serve", "server": "serve", "up": "serve", "launch": "serve"]

    /// ". Did you mean 'serve'?" for a near miss of a subcommand's name or a synonym of one; "" otherwise.
    static func suggestion(for name: String, among names: [String]) -> String {
        let synonym = synonyms[name.lowercased()].flatMap { names.contains($0) ? $0 : nil }
        guard let best = synonym ?? EditDistance.closest(to: name, among: names, maximum: 3) else { return "" }
        return ". Did you mean '\(best)'?"
    }
}
