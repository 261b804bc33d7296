import SIWACore
import SIWAServer
import ScenarioFormat
import ScenarioModel

#if canImport(Glibc)
    import Glibc
#endif

/// Reading scenario files from disk: the text, the `pem_file:`s it names, and a change stamp for reload.
enum ScenarioFile {
    /// Loads and validates `path`; every problem as `file:line:col: message` lines in the error.
    static func load(
        _ path: String, generateMissingKeys: Bool = true, log: RequestLog? = nil
    ) throws(ScenarioFileError) -> Scenario {
        try loadWithText(path, generateMissingKeys: generateMissingKeys, log: log).scenario
    }

    /// The scenario and the text it was read from (one read: `GET /mock/scenario` shows that text).
    static func loadWithText(
        _ path: String, generateMissingKeys: Bool = true, log: RequestLog? = nil
    ) throws(ScenarioFileError) -> (scenario: Scenario, text: String) {
        let text: String
        do {
            text = try FileSystem.readText(path, limit: ScenarioDocument.maximumSize)
        } catch {
            throw ScenarioFileError(lines: ["\(path): \(error.message)"])
        }
        var loader = ScenarioLoader(readFile: readPEMFile, generateMissingKeys: generateMissingKeys)
        loader.note = { log?.note("\(path): \($0)") }
        loader.ruleTargets = AppleEndpoints.ruleTargets
        do {
            return (try loader.load(text, file: path), text)
        } catch {
            throw ScenarioFileError(lines: error.diagnostics.map(\.description))
        }
    }

    /// A `pem_file:` from a scenario loaded from disk: regular files only, opened non-blocking.
    static func readPEMFile(_ path: String) throws(FileReadError) -> String {
        do {
            return try FileSystem.readText(path, limit: 64 * 1024)
        } catch {
            // The message repeats the path the diagnostic already names; keep only the reason.
            let prefix = "cannot read \(path): "
            throw FileReadError(
                error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message)
        }
    }

    /// What identifies one version of a file: changes when the file is rewritten or replaced.
    struct Stamp: Sendable, Equatable {
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64
        var size: Int64
        var inode: UInt64
        /// False for a FIFO, device, socket or directory: such a path is never opened for reloading.
        var isRegularFile: Bool
    }

    /// The file's current stamp (`stat`, which never blocks, even on a FIFO); nil if missing.
    static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(
            modifiedSeconds: Int64(info.st_mtim.tv_sec), modifiedNanoseconds: Int64(info.st_mtim.tv_nsec),
            size: Int64(info.st_size), inode: UInt64(info.st_ino),
            isRegularFile: (info.st_mode & S_IFMT) == S_IFREG)
    }
}

/// A scenario file that failed to load: one rendered diagnostic per line.
struct ScenarioFileError: Error {
    var lines: [String]
}
