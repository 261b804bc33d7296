import Foundation
import SIWACore
import SIWAServer
import ScenarioFormat
import ScenarioModel

/// Where an `AppleIDMock` gets its scenario (users, apps, keys, faults; docs/scenarios.md).
public enum ScenarioSource: Sendable, Equatable {
    /// The built-in scenario (`scenarios/default.yaml`): team `ABCDE12345`, the app `com.example.app`,
    /// the Services ID `com.example.web`, users `alice`, `bob` (private relay) and `carol`.
    case builtIn
    /// A scenario file; `pem_file:` paths are relative to it, as for `siwa-mock serve --scenario`.
    case file(String)
    /// Scenario text (YAML subset or JSON). It reads no files: keys go inline; sections it leaves out
    /// come from the built-in scenario.
    case text(String)

    /// The scenario, and where it came from with its text (nil for the built-in one).
    func load() throws(AppleIDMockError) -> (scenario: Scenario, origin: (source: String, text: String)?) {
        let text: String
        let name: String
        var loader: ScenarioLoader
        switch self {
        case .builtIn:
            return (Scenario.builtIn, nil)
        case .file(let path):
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw AppleIDMockError(
                    .scenario, field: "scenario", "\(path): cannot read: \(error.localizedDescription)")
            }
            name = path
            loader = ScenarioLoader(readFile: Self.readPEMFile)
        case .text(let body):
            text = body
            name = "scenario"
            loader = ScenarioLoader(readFile: nil)
        }
        loader.ruleTargets = AppleEndpoints.ruleTargets
        guard text.utf8.count <= ScenarioDocument.maximumSize else {
            throw AppleIDMockError(
                .scenario, field: "scenario",
                "\(name): longer than \(ScenarioDocument.maximumSize) bytes")
        }
        do {
            return (try loader.load(text, file: name), (name, text))
        } catch {
            throw AppleIDMockError(
                .scenario, field: "scenario", error.diagnostics.map(\.description).joined(separator: "\n"))
        }
    }

    /// A `pem_file:` named by a scenario file (at most 64 KiB).
    @Sendable static func readPEMFile(_ path: String) throws(FileReadError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw FileReadError("cannot read the file") }
        guard data.count <= 64 * 1024 else { throw FileReadError("larger than 64 KiB") }
        guard let text = String(data: data, encoding: .utf8) else { throw FileReadError("not UTF-8 text") }
        return text
    }
}
