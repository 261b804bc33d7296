import Foundation
import Glibc
import Synchronization

/// PIDs of servers still running, killed when the test process exits (a server held in a `static`
/// is never deinitialized, and an orphan would keep `swift test`'s output pipe open).
private let runningServers = Mutex<Set<Int32>>([])
private let exitHookInstalled = Mutex(false)

/// Where the Redis-backed tests find `redis-server`: on PATH, as a shell would. Without it they are skipped
/// with `hint`, unless `SIWA_MOCK_REQUIRE_REDIS=1` (set by .ci/run) makes its absence a failure.
package enum RedisServerBinary {
    package static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return directories.map { "\($0)/redis-server" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
    package static var found: Bool { path != nil }
    package static let required = ProcessInfo.processInfo.environment["SIWA_MOCK_REQUIRE_REDIS"] == "1"
    package static let hint =
        "redis-server is not on PATH: install it to run the Redis-backed tests (Debian/Ubuntu: sudo apt-get install redis-server)"
}

/// A `redis-server` (Debian's package) started for a test on a loopback port picked by binding port 0,
/// with its data in a temporary directory; stopped by its PID.
package final class RedisServerProcess: @unchecked Sendable {
    // @unchecked: `process` is replaced only by start/stop, which tests call from one thread.
    package let port: Int
    package let directory: URL
    let persistent: Bool
    let extraArguments: [String]
    var process: Process?

    /// - Parameters:
    ///   - persistent: append-only file with fsync on every write, so a restart loses nothing.
    ///   - extraArguments: more `redis-server` options, e.g. `["--requirepass", "s3cret"]`.
    package init(persistent: Bool = false, extraArguments: [String] = []) throws {
        port = try Self.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.persistent = persistent
        self.extraArguments = extraArguments
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    package var url: String { "redis://127.0.0.1:\(port)" }

    /// Starts (or restarts) the server on the same port and directory; waits until it accepts connections.
    package func start() throws {
        let process = Process()
        guard let executable = RedisServerBinary.path else { throw RedisStartError(message: RedisServerBinary.hint) }
        process.executableURL = URL(fileURLWithPath: executable)
        var arguments = [
            "--port", String(port), "--bind", "127.0.0.1", "--dir", directory.path, "--save", "",
            "--daemonize", "no", "--logfile", directory.appendingPathComponent("redis.log").path,
        ]
        arguments += persistent ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]
        process.arguments = arguments + extraArguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        runningServers.withLock { _ = $0.insert(process.processIdentifier) }
        exitHookInstalled.withLock { installed in
            guard !installed else { return }
            installed = true
            atexit {
                for pid in runningServers.withLock({ $0 }) { Glibc.kill(pid, SIGKILL) }
            }
        }
        for _ in 0..<200 {
            if Self.accepts(port: port) { return }
            usleep(10_000)
        }
        throw RedisStartError(message: "redis-server did not accept connections on port \(port) within 2 s")
    }

    /// Stops the server with SIGKILL (an outage, not a shutdown: the append-only file of a persistent
    /// server is fsynced on every write, so nothing acknowledged is lost) and waits for it to exit.
    package func kill() {
        guard let process else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        runningServers.withLock { _ = $0.remove(process.processIdentifier) }
        self.process = nil
    }

    package func stop() { kill() }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Int32 in
                guard bind(fd, raw, length) == 0 else { return -1 }
                return getsockname(fd, raw, &length)
            }
        }
        guard bound == 0 else { throw RedisStartError(message: "cannot bind a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

package struct RedisStartError: Error, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
