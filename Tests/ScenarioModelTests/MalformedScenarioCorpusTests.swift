import Foundation
import SIWATestSupport
import ScenarioModel
import Testing

/// Every file in `Tests/ScenarioCorpus/` is a broken scenario whose `# expect: L:C: message` lines are
/// the exact, complete list of diagnostics the loader must report.
@Suite struct MalformedScenarioCorpusTests {
    static let repositoryRoot = URL(fileURLWithPath: ScenarioFiles.directory).deletingLastPathComponent().path

    static var corpus: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/Tests/ScenarioCorpus")) ?? [])
            .filter { $0.hasSuffix(".yaml") }.sorted()
    }

    @Test func corpusIsNotEmpty() {
        #expect(Self.corpus.count >= 12)
    }

    @Test(arguments: corpus)
    func reportsExactlyTheExpectedDiagnostics(_ name: String) throws {
        let file = "Tests/ScenarioCorpus/" + name
        let text = try #require(ScenarioFiles.read(Self.repositoryRoot + "/" + file))
        let expected = text.split(separator: "\n").compactMap { line -> String? in
            line.hasPrefix("# expect: ") ? "\(file):" + line.dropFirst("# expect: ".count) : nil
        }
        #expect(!expected.isEmpty, "\(name) has no '# expect:' lines")
        var loader = ScenarioLoader(
            files: { ScenarioFiles.read($0.hasPrefix("/") ? $0 : Self.repositoryRoot + "/" + $0) },
            generateMissingKeys: false)
        loader.ruleTargets = ScenarioFiles.ruleTargets
        do {
            _ = try loader.load(text, file: file)
            Issue.record("\(name) loaded without errors")
        } catch {
            #expect(error.diagnostics.map(\.description) == expected)
        }
    }
}
