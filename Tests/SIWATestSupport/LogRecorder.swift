import Synchronization

/// Collects log lines so tests can assert that no unexpected 500 was logged.
package final class LogRecorder: Sendable {
    private let storage = Mutex<[String]>([])

    package init() {}

    package func record(_ line: String) { storage.withLock { $0.append(line) } }

    package var lines: [String] { storage.withLock { $0 } }

    /// Lines reporting an internal server error.
    package var serverErrors: [String] { lines.filter { $0.hasPrefix("500") } }
}
