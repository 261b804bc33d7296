import Foundation
import SIWACore

/// The repository's `scenarios/` directory and a loader that reads `pem_file:` from disk.
public enum ScenarioFiles {
    /// Absolute path of `scenarios/`.
    public static let directory: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scenarios").path
    }()

    public static func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    public static var loader: ScenarioLoader { ScenarioLoader(files: read) }

    /// Every `.yaml`/`.json` file name in `scenarios/`, sorted.
    public static var yamlFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted()
    }

    /// Loads `scenarios/NAME`.
    public static func load(_ name: String) throws -> Scenario {
        let path = directory + "/" + name
        return try loader.load(read(path) ?? "", file: path)
    }
}
