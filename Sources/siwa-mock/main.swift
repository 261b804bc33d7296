import JOSE

#if canImport(Glibc)
    import Glibc
#endif

/// Entry point. Work happens inside a function: closures at the top level of main.swift would be
/// inferred @MainActor and trap when called from event-loop threads (SE-0343,
/// https://github.com/swiftlang/swift-evolution/blob/main/proposals/0343-top-level-concurrency.md).
func runTool() -> Int32 {
    OpenSSLLibrary.skipCleanupAtExit()
    var environment: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
        let text = String(cString: entry)
        if let equals = text.firstIndex(of: "=") {
            environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        pointer += 1
    }
    let tool = CommandLineTool(
        commands: CommandLineTool.allCommands,
        defaultCommand: ServeCommand.name, environment: environment, console: Console())
    return tool.run(CommandLine.arguments)
}

exit(runTool())
