/// Renders `--help` and usage lines in swift-argument-parser's layout.
enum HelpFormatter {
    static func usage(of command: any Command.Type, toolName: String) -> String {
        var parts = ["\(toolName) \(command.name)"]
        for spec in command.options where spec.name != "help" {
            parts.append(spec.required ? spec.synopsis : "[\(spec.synopsis)]")
        }
        if let positionals = command.positionalsSynopsis { parts.append(positionals) }
        return parts.joined(separator: " ")
    }

    static func help(for command: any Command.Type, toolName: String) -> String {
        var text = "OVERVIEW: \(command.abstract)\n"
        if let discussion = command.discussion { text += "\n\(discussion)\n" }
        text += "\nUSAGE: \(usage(of: command, toolName: toolName))\n\nOPTIONS:\n"
        for spec in command.options {
            var left = spec.synopsis
            if let short = spec.short { left = "-\(short), " + left }
            var right = spec.help
            if let defaultDescription = spec.defaultDescription { right += " (default: \(defaultDescription))" }
            if let variable = spec.environment { right += " [env: \(variable)]" }
            text += row(left, right)
        }
        text += row("-h, --help", "Show help information.")
        return text
    }

    static func toolHelp(toolName: String, abstract: String, commands: [any Command.Type], defaultCommand: String)
        -> String
    {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: \(toolName) <subcommand>\n\nOPTIONS:\n"
        text += row("--version", "Show the version and the commit it was built from.")
        text += row("-h, --help", "Show help information.")
        text += "\nSUBCOMMANDS:\n"
        for command in commands {
            let name = command.name == defaultCommand ? "\(command.name) (default)" : command.name
            text += row(name, command.abstract)
        }
        text += "\n  See '\(toolName) help <subcommand>' for detailed help.\n"
        return text
    }

    private static func row(_ left: String, _ right: String) -> String {
        let padded =
            left.count < 28
            ? left + String(repeating: " ", count: 28 - left.count) : left + "\n" + String(repeating: " ", count: 30)
        return "  \(padded)\(right)\n"
    }
}
