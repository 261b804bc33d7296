import Foundation
import Testing

/// The built `siwa-mock` binary run as a child process, as users and CI run it.
final class MockProcess: @unchecked Sendable {
    let process = Process()
    let stdout = Pipe()
    let stderr = Pipe()
    private(set) var baseURL = ""
    private(set) var port = 0

    /// Path of the binary built next to the test bundle (`swift test` builds it first).
    static var binaryPath: String {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent().appendingPathComponent("siwa-mock").path
    }

    /// Runs a command to completion (for the non-serving subcommands); after `timeoutSeconds` it is
    /// killed (status 15), so a command that hangs fails its test instead of hanging the suite.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
        timeoutSeconds: Double = 60
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binaryPath)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SIWA_MOCK_") }
        env.merge(environment) { $1 }
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds, execute: watchdog)
        defer { watchdog.cancel() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }

    /// Starts `siwa-mock serve --port 0 …` (or another port) and waits for its one ready line.
    init(_ arguments: [String] = [], environment: [String: String] = [:], port requestedPort: Int = 0) throws {
        process.executableURL = URL(fileURLWithPath: Self.binaryPath)
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", String(requestedPort)] + arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SIWA_MOCK_") }
        env.merge(environment) { $1 }
        process.environment = env
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let line = try Self.readLine(from: stdout.fileHandleForReading, timeoutSeconds: 10)
        let prefix = "siwa-mock listening on "
        guard line.hasPrefix(prefix) else {
            process.terminate()
            throw MockProcessError("unexpected first stdout line: \(line)")
        }
        baseURL = String(line.dropFirst(prefix.count))
        port = Int(baseURL.split(separator: ":").last ?? "") ?? 0
    }

    /// Sends SIGTERM and returns the exit status.
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    private static func readLine(from handle: FileHandle, timeoutSeconds: Double) throws -> String {
        var buffer = Data()
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty { break }
            if byte.first == UInt8(ascii: "\n") { return String(decoding: buffer, as: UTF8.self) }
            buffer.append(byte)
        }
        throw MockProcessError("no ready line (got '\(String(decoding: buffer, as: UTF8.self))')")
    }
}

struct MockProcessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
