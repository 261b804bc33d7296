import TLS

/// The `--tls*` options of `serve`.
struct TLSOptions: Sendable {
    static let tls = Flag("tls", help: "Also serve HTTPS (TLS 1.2/1.3) on --tls-port.", environment: true)
    static let port = Option(
        "tls-port", "port", help: "HTTPS port; 0 picks a free one.", default: 8443, environment: true,
        parser: .integer(in: 0...65535))
    static let certificate = Option.optional(
        "tls-cert", "file", help: "PEM certificate chain to serve instead of the local CA's.", environment: true,
        parser: .nonEmpty)
    static let key = Option.optional(
        "tls-key", "file", help: "PEM private key for --tls-cert.", environment: true, parser: .nonEmpty)
    static let names = Option.repeated(
        "tls-name", "name",
        help: "Extra DNS name or IP for the generated certificate (repeatable; commas separate in the env var).",
        environment: true, parser: .text)
    /// Also `ca`'s `--tls-dir`.
    static let directory = Option.optional(
        "tls-dir", "dir",
        help: "Where the local CA and server certificate live (default: --state-dir, else ~/.local/state/siwa-mock).",
        environment: true, parser: .nonEmpty)
    static let noHTTP = Flag(
        "no-http", help: "Serve only HTTPS (needs --tls); the health check must then use another way in.",
        environment: true)

    static let specs: [OptionSpec] = [
        tls.spec, port.spec, certificate.spec, key.spec, names.spec, directory.spec, noHTTP.spec,
    ]

    var enabled: Bool
    var port: Int
    var certificateFile: String?
    var keyFile: String?
    var names: [String]
    var noHTTP: Bool
    var directory: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        enabled = arguments.read(Self.tls)
        port = try arguments.read(Self.port)
        certificateFile = try arguments.read(Self.certificate)
        keyFile = try arguments.read(Self.key)
        names = try arguments.read(Self.names).flatMap { $0.split(separator: ",").map(String.init) }
            .map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        noHTTP = arguments.read(Self.noHTTP)
        directory = try arguments.read(Self.directory)
        if (certificateFile == nil) != (keyFile == nil) {
            throw UsageError("--tls-cert and --tls-key must be given together")
        }
        if certificateFile != nil || !names.isEmpty || arguments.isGiven(Self.port) {
            guard enabled else { throw UsageError("--tls-cert, --tls-key, --tls-name and --tls-port need --tls") }
        }
        if noHTTP && !enabled { throw UsageError("--no-http needs --tls (otherwise nothing would listen)") }
        if certificateFile != nil && !names.isEmpty {
            throw UsageError("--tls-name applies to the generated certificate; it cannot be combined with --tls-cert")
        }
        for name in names where name.contains(" ") || name.utf8.count > 253 {
            throw UsageError("--tls-name '\(name)' is not a DNS name or IP address")
        }
    }

    /// What `serve` needs to run TLS: the context, and the CA PEM to publish (nil with `--tls-cert`).
    struct Setup {
        var context: TLSServerContext
        var caPEM: String?
    }

    /// Loads `--tls-cert/--tls-key`, or the state directory's CA and server certificate (creating them).
    func setUp(stateDirectory: String?, log: RequestLog) throws(RuntimeError) -> Setup {
        let credentials: TLSCredentials
        var caPEM: String? = nil
        if let certificateFile, let keyFile {
            credentials = TLSCredentials(
                certificateChainPEM: try FileSystem.readText(certificateFile, limit: 1024 * 1024, regularOnly: false),
                privateKeyPEM: try FileSystem.readText(keyFile, limit: 1024 * 1024, regularOnly: false))
        } else {
            let directory = TLSStateDirectory(path: TLSStateDirectory.resolve(directory ?? stateDirectory))
            credentials = try directory.serverCredentials(extraNames: names, log: log)
            caPEM = try directory.authority().certificatePEM
        }
        do {
            return Setup(
                context: try TLSServerContext(
                    certificateChainPEM: credentials.certificateChainPEM, privateKeyPEM: credentials.privateKeyPEM),
                caPEM: caPEM)
        } catch {
            throw RuntimeError("cannot use the TLS certificate: \(error.message)")
        }
    }
}

/// `--log-format` and `--log-level`, shared by commands that log.
enum LogOptions {
    static let format = Option(
        "log-format", "format", help: "Request log format: text or json (JSON Lines).",
        default: LogSettings().format, shownDefault: LogSettings().format.rawValue, environment: true,
        parser: .choice(LogSettings.Format.allCases.map { ($0.rawValue, $0) }))
    static let level = Option(
        "log-level", "level", help: "debug, info, warn or error.", default: LogSettings().minimumLevel,
        shownDefault: LogSettings().minimumLevel.name, environment: true,
        parser: .choice(LogSettings.Level.allCases.map { ($0.name, $0) }))

    static let specs: [OptionSpec] = [format.spec, level.spec]

    static func settings(_ arguments: ParsedArguments) throws(UsageError) -> LogSettings {
        LogSettings(format: try arguments.read(format), minimumLevel: try arguments.read(level))
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
