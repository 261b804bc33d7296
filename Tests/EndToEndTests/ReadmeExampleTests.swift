import Foundation
import Testing

/// The README's examples stay true: its scenario snippet passes `siwa-mock check`.
@Suite struct ReadmeExampleTests {
    @Test func scenarioSnippetPassesCheck() throws {
        let readme = try String(contentsOfFile: CLICommandTests.repoRoot + "/README.md", encoding: .utf8)
        let blocks = readme.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(!blocks.isEmpty, "the README has a yaml scenario example")
        for (index, block) in blocks.enumerated() {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString).yaml")
            try block.write(to: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: path) }
            let result = try MockProcess.run(["check", path.path])
            #expect(result.status == 0, "README yaml block \(index): \(result.stderr)")
        }
    }
}
