import Foundation
import Testing

/// The README's examples stay true: every scenario snippet in it and in docs/scenarios.md passes
/// `siwa-mock check` (from a directory whose `keys` links to `scenarios/keys`, so `pem_file: keys/…`
/// resolves as for the shipped examples). Tests/Docs/run.sh runs every block of every page as well.
@Suite struct ReadmeExampleTests {
    static let scenarioKeys = ["seed:", "users:", "teams:", "clients:", "faults:", "timeline:", "signing_keys:"]

    @Test func scenarioSnippetsPassCheck() throws {
        let readme = try ["/README.md", "/docs/scenarios.md"].map {
            try String(contentsOfFile: CLICommandTests.repoRoot + $0, encoding: .utf8)
        }.joined(separator: "\n")
        let blocks = readme.components(separatedBy: "```yaml\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        let scenarios = blocks.filter { block in Self.scenarioKeys.contains { block.hasPrefix($0) } }
        #expect(scenarios.count >= 2, "the README and docs/scenarios.md show scenario examples")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("keys").path,
            withDestinationPath: CLICommandTests.repoRoot + "/scenarios/keys")
        for (index, block) in scenarios.enumerated() {
            let path = directory.appendingPathComponent("example-\(index).yaml").path
            try block.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try MockProcess.run(["check", path])
            #expect(result.status == 0, "README scenario example \(index): \(result.stderr)")
        }
    }
}
