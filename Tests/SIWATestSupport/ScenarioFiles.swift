import Foundation
import SIWACore
import SIWAServer
import ScenarioModel

/// The repository's `scenarios/` directory and a loader that reads `pem_file:` from disk.
package enum ScenarioFiles {
    /// Absolute path of `scenarios/`.
    package static let directory: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scenarios").path
    }()

    package static func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// A loader as the server runs it: `pem_file:` from disk, rules checked against Apple's routes.
    package static var loader: ScenarioLoader {
        var loader = ScenarioLoader(files: read)
        loader.ruleTargets = ruleTargets
        return loader
    }

    /// What fault rules and timeline triggers may match: the route table's Apple routes.
    package static var ruleTargets: [AppleRoute] { AppleEndpoints.ruleTargets }

    /// Every `.yaml`/`.json` file name in `scenarios/`, sorted.
    package static var yamlFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted()
    }

    /// Loads `scenarios/NAME`.
    package static func load(_ name: String) throws -> Scenario {
        let path = directory + "/" + name
        return try loader.load(read(path) ?? "", file: path)
    }
}
