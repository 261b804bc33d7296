/// How the request log is written: `--log-format` and `--log-level`.
struct LogSettings: Sendable, Equatable {
    enum Format: String, Sendable, CaseIterable {
        /// One human-readable line per event.
        case text
        /// One JSON object per line (JSON Lines), for CI log processors.
        case json
    }

    enum Level: Int, Sendable, CaseIterable, Comparable {
        case debug, info, warn, error

        var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warn: "warn"
            case .error: "error"
            }
        }

        init?(name: String) {
            guard let level = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
            self = level
        }

        static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    var format: Format = .text
    /// Events below this level are dropped (requests are `info`, 5xx `error`, TLS failures `warn`).
    var minimumLevel: Level = .info
}
