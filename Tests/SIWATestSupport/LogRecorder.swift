import Synchronization

/// Collects log lines so tests can assert that no unexpected 500 was logged.
public final class LogRecorder: Sendable {
    private let storage = Mutex<[String]>([])

    public init() {}

    public func record(_ line: String) { storage.withLock { $0.append(line) } }

    public var lines: [String] { storage.withLock { $0 } }

    /// Lines reporting an internal server error.
    public var serverErrors: [String] { lines.filter { $0.hasPrefix("500") } }
}
