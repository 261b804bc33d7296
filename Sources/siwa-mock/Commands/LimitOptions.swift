import EventLoop
import HTTP

/// `serve`'s connection cap and timeouts (README "Limits"), mapped onto `HTTPServerConfiguration` (and,
/// for the SMTP listener, onto its `ListenerConfiguration`).
///
/// Absent options leave the configurations' defaults in place, and help shows those same
/// values. Tests and the adversarial suite lower them to observe a timeout in seconds rather than a minute.
struct LimitOptions: Sendable {
    private static var defaults: HTTPServerConfiguration { HTTPServerConfiguration() }

    static let maxConnections = Option.optional(
        "max-connections", "n", help: "Open connections at most; beyond it new ones get 503 and are closed.",
        shownDefault: String(defaults.listener.maxConnections), environment: true, parser: .integer(in: 1...1_000_000))
    static let headerTimeout = Option.optional(
        "header-timeout", "ms", help: "Milliseconds allowed for a request head (and again for its body).",
        shownDefault: String(defaults.headerTimeoutMilliseconds), environment: true,
        parser: .integer(in: 1...3_600_000))
    static let idleTimeout = Option.optional(
        "idle-timeout", "ms",
        help: "Milliseconds a keep-alive connection may idle, or a client may stall reading, before it is closed.",
        shownDefault: String(defaults.listener.idleTimeoutMilliseconds), environment: true,
        parser: .integer(in: 1...86_400_000))

    static let specs: [OptionSpec] = [maxConnections.spec, headerTimeout.spec, idleTimeout.spec]

    var maxConnections: Int?
    var headerTimeoutMilliseconds: Int?
    var idleTimeoutMilliseconds: Int?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        maxConnections = try arguments.read(Self.maxConnections)
        headerTimeoutMilliseconds = try arguments.read(Self.headerTimeout)
        idleTimeoutMilliseconds = try arguments.read(Self.idleTimeout)
    }

    /// Overrides only what was given, so the configuration's defaults stay the single source of truth.
    /// The request head's timeout also bounds its body and a TLS handshake.
    func apply(to configuration: inout HTTPServerConfiguration) {
        apply(to: &configuration.listener)
        if let headerTimeoutMilliseconds {
            configuration.headerTimeoutMilliseconds = headerTimeoutMilliseconds
            configuration.bodyTimeoutMilliseconds = headerTimeoutMilliseconds
        }
    }

    /// The connection cap, the idle timeout, and the header timeout as the TLS handshake's.
    func apply(to configuration: inout ListenerConfiguration) {
        if let maxConnections { configuration.maxConnections = maxConnections }
        if let headerTimeoutMilliseconds { configuration.handshakeTimeoutMilliseconds = headerTimeoutMilliseconds }
        if let idleTimeoutMilliseconds { configuration.idleTimeoutMilliseconds = idleTimeoutMilliseconds }
    }
}
