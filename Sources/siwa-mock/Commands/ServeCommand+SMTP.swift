import EventLoop
import HTTP
import SIWAServer
import TLS

/// The `--smtp-*` options of `serve`: the private email relay's SMTP listener (docs/relay-mail.md).
struct SMTPOptions: Sendable {
    static let port = Option.optional(
        "smtp-port", "port",
        help: "Also accept mail for the private email relay over SMTP on this port; 0 picks a free one.",
        shownDefault: "off", environment: true, parser: .integer(in: 0...65535))
    static let timeout = Option(
        "smtp-timeout", "ms",
        help: "Milliseconds an SMTP client may take to finish a command or message before 421 and close.",
        default: 300_000, environment: true, parser: .integer(in: 1...3_600_000))
    static let maxMessageBytes = Option(
        "smtp-max-message-bytes", "n", help: "Largest message the SMTP listener accepts (advertised as SIZE).",
        default: 10 * 1024 * 1024, environment: true, parser: .integer(in: 1024...100 * 1024 * 1024))

    static let maxPendingBytes = Option(
        "smtp-max-pending-bytes", "n",
        help: "Bytes all messages still being received may hold together; beyond it DATA gets 452 (docs/limits.md).",
        default: 64 * 1024 * 1024, environment: true, parser: .integer(in: 1024 * 1024...16 * 1024 * 1024 * 1024))

    static let specs: [OptionSpec] = [port.spec, timeout.spec, maxMessageBytes.spec, maxPendingBytes.spec]

    var port: Int?
    var timeoutMilliseconds: Int
    var maxMessageBytes: Int
    var maxPendingBytes: Int

    init(_ arguments: ParsedArguments) throws(UsageError) {
        port = try arguments.read(Self.port)
        timeoutMilliseconds = try arguments.read(Self.timeout)
        maxMessageBytes = try arguments.read(Self.maxMessageBytes)
        maxPendingBytes = try arguments.read(Self.maxPendingBytes)
        let given =
            arguments.isGiven(Self.timeout) || arguments.isGiven(Self.maxMessageBytes)
            || arguments.isGiven(Self.maxPendingBytes)
        if port == nil && given {
            throw UsageError("--smtp-timeout, --smtp-max-message-bytes and --smtp-max-pending-bytes need --smtp-port")
        }
        if maxPendingBytes < maxMessageBytes && arguments.isGiven(Self.maxPendingBytes) {
            throw UsageError(
                "--smtp-max-pending-bytes (\(maxPendingBytes)) must be at least --smtp-max-message-bytes "
                    + "(\(maxMessageBytes)): the largest message must fit")
        }
    }

    /// Starts the SMTP listener on `host` for `mock`, offering STARTTLS with `tls` when set.
    func start(host: String, mock: MockServer, tls: TLSServerContext?, limits: LimitOptions, log: RequestLog) throws
        -> EventLoopServer?
    {
        guard let port else { return nil }
        var configuration = ListenerConfiguration()
        configuration.host = host
        configuration.port = port
        limits.apply(to: &configuration)
        configuration.idleTimeoutMilliseconds = timeoutMilliseconds
        configuration.handshakeTimeoutMilliseconds = min(
            configuration.handshakeTimeoutMilliseconds, timeoutMilliseconds)
        var options = RelaySMTPService.Options()
        options.tls = tls
        options.maxMessageBytes = maxMessageBytes
        options.maxPendingBytes = max(maxPendingBytes, maxMessageBytes)
        let server = EventLoopServer(
            configuration: configuration, stream: RelaySMTPService(server: mock, options: options),
            onDiagnostic: { log.record($0) })
        do {
            try server.start()
        } catch let error as ListenError {
            throw RuntimeError(
                "\(error.message) (SMTP); choose another port with --smtp-port <port> or SIWA_MOCK_SMTP_PORT"
                    + " (0 picks a free one and prints it)")
        }
        return server
    }
}
