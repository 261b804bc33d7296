import TLS

/// The `--tls*` options of `serve`.
struct TLSOptions: Sendable {
    static let specs: [OptionSpec] = [
        .flag("tls", help: "Also serve HTTPS (TLS 1.2/1.3) on --tls-port.", environment: true),
        .value("tls-port", "port", help: "HTTPS port; 0 picks a free one.", default: "8443", environment: true),
        .value(
            "tls-cert", "file", help: "PEM certificate chain to serve instead of the local CA's.", environment: true),
        .value("tls-key", "file", help: "PEM private key for --tls-cert.", environment: true),
        .value(
            "tls-name", "name",
            help: "Extra DNS name or IP for the generated certificate (repeatable; commas separate in the env var).",
            environment: true, repeatable: true),
        .value(
            "tls-dir", "dir",
            help:
                "Where the local CA and server certificate live (default: --state-dir, else ~/.local/state/siwa-mock).",
            environment: true),
        .flag(
            "no-http", help: "Serve only HTTPS (needs --tls); the health check must then use another way in.",
            environment: true),
    ]

    var enabled: Bool
    var port: Int
    var certificateFile: String?
    var keyFile: String?
    var names: [String]
    var noHTTP: Bool
    var directory: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        enabled = arguments.has("tls")
        port = try arguments.integer("tls-port", in: 0...65535) ?? 8443
        certificateFile = arguments.value("tls-cert")
        keyFile = arguments.value("tls-key")
        names = arguments.all("tls-name").flatMap { $0.split(separator: ",").map(String.init) }
            .map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        noHTTP = arguments.has("no-http")
        directory = arguments.value("tls-dir")
        if directory == "" { throw UsageError("--tls-dir must not be empty") }
        if (certificateFile == nil) != (keyFile == nil) {
            throw UsageError("--tls-cert and --tls-key must be given together")
        }
        if certificateFile != nil || !names.isEmpty || arguments.value("tls-port") != nil {
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
    static let specs: [OptionSpec] = [
        .value(
            "log-format", "format", help: "Request log format: text or json (JSON Lines).", default: "text",
            environment: true),
        .value("log-level", "level", help: "debug, info, warn or error.", default: "info", environment: true),
    ]

    static func settings(_ arguments: ParsedArguments) throws(UsageError) -> LogSettings {
        var settings = LogSettings()
        if let text = arguments.value("log-format") {
            guard let format = LogSettings.Format(rawValue: text.lowercased()) else {
                throw UsageError("\(arguments.source(of: "log-format")) must be text or json, got '\(text)'")
            }
            settings.format = format
        }
        if let text = arguments.value("log-level") {
            guard let level = LogSettings.Level(name: text) else {
                throw UsageError(
                    "\(arguments.source(of: "log-level")) must be debug, info, warn or error, got '\(text)'")
            }
            settings.minimumLevel = level
        }
        return settings
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
