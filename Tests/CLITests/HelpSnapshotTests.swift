import Foundation
import Testing

@testable import siwa_mock

/// `--help` of the tool and of every subcommand, checked against golden files in `HelpSnapshots/`.
/// A change to an option's name, default, help or env var fails here until the golden is updated:
/// `SIWA_MOCK_UPDATE_SNAPSHOTS=1 swift test --filter HelpSnapshotTests` rewrites them (then run
/// `docs/cli.sh` so docs/cli.md follows).
@Suite struct HelpSnapshotTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("HelpSnapshots")
    static let toolName = CommandLineTool.name
    static let names = [toolName] + CommandLineTool.allCommands.map { $0.name }

    static func help(_ name: String) -> String {
        guard let command = CommandLineTool.allCommands.first(where: { $0.name == name }) else {
            return HelpFormatter.toolHelp(
                toolName: toolName, abstract: CommandLineTool.abstract, commands: CommandLineTool.allCommands,
                defaultCommand: ServeCommand.name)
        }
        return HelpFormatter.help(for: command, toolName: toolName)
    }

    @Test(arguments: names)
    func helpMatchesItsGolden(name: String) throws {
        let file = Self.directory.appendingPathComponent("\(name).txt")
        let actual = Self.help(name)
        if ProcessInfo.processInfo.environment["SIWA_MOCK_UPDATE_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let golden = try? String(contentsOf: file, encoding: .utf8)
        #expect(
            golden == actual,
            "help of '\(name)' differs from \(file.path); if intended, rerun with SIWA_MOCK_UPDATE_SNAPSHOTS=1")
    }

    @Test func everyGoldenBelongsToACommand() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
        let stale = files.filter { !Self.names.map { "\($0).txt" }.contains($0) }
        #expect(stale.isEmpty, "goldens without a command: \(stale)")
    }

    /// The runtime's default is the one help shows, for every option that has a value of its own.
    @Test func declaredDefaultsAreWhatHelpShows() throws {
        let parsed = try ArgumentParser(options: [], acceptsPositionals: false).parse([], environment: [:])
        #expect(try parsed.read(ServeCommand.port) == 8080)
        #expect(Self.help("serve").contains("(default: \(ServeCommand.port.defaultValue))"))
        #expect(try ServeCommand(parsed).port == ServeCommand.port.defaultValue)
        #expect(try ServeCommand(parsed).host == ServeCommand.host.defaultValue)
        #expect(try ServeCommand(parsed).tls.port == TLSOptions.port.defaultValue)
        #expect(try HealthCommand(parsed).url == "http://127.0.0.1:\(ServeCommand.port.defaultValue)")
        #expect(Self.help("health").contains("(default: \(ServeCommand.port.defaultValue))"))
    }
}
