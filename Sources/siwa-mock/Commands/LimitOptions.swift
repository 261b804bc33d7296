import HTTPServer

/// `serve`'s connection cap and timeouts (README "Limits"), mapped onto `HTTPServerConfiguration`.
///
/// The defaults are the documented ones; tests and the adversarial suite lower them to observe a
/// timeout in seconds rather than a minute.
struct LimitOptions: Sendable {
    static let specs: [OptionSpec] = [
        .value(
            "max-connections", "n", help: "Open connections at most; beyond it new ones get 503 and are closed.",
            default: "10000", environment: true),
        .value(
            "header-timeout", "ms", help: "Milliseconds allowed for a request head (and again for its body).",
            default: "10000", environment: true),
        .value(
            "idle-timeout", "ms",
            help: "Milliseconds a keep-alive connection may idle, or a client may stall reading, before it is closed.",
            default: "60000", environment: true),
    ]

    var maxConnections: Int?
    var headerTimeoutMilliseconds: Int?
    var idleTimeoutMilliseconds: Int?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        maxConnections = try arguments.integer("max-connections", in: 1...1_000_000)
        headerTimeoutMilliseconds = try arguments.integer("header-timeout", in: 1...3_600_000)
        idleTimeoutMilliseconds = try arguments.integer("idle-timeout", in: 1...86_400_000)
    }

    /// Overrides only what was given, so the configuration's defaults stay the single source of truth.
    func apply(to configuration: inout HTTPServerConfiguration) {
        if let maxConnections { configuration.maxConnections = maxConnections }
        if let headerTimeoutMilliseconds {
            configuration.headerTimeoutMilliseconds = headerTimeoutMilliseconds
            configuration.bodyTimeoutMilliseconds = headerTimeoutMilliseconds
        }
        if let idleTimeoutMilliseconds { configuration.idleTimeoutMilliseconds = idleTimeoutMilliseconds }
    }
}
