import HTTPServer
import SIWACore
import SIWAServer

/// `siwa-mock serve` (the default command): Apple's endpoints on the built-in or a given scenario.
struct ServeCommand: Command {
    static let name = "serve"
    static let abstract = "Serve Apple's Sign in with Apple endpoints (the default subcommand)."
    static let discussion: String? = """
        When ready it prints exactly one line to stdout, `siwa-mock listening on http://HOST:PORT`;
        request logs go to stderr. SIGTERM or SIGINT finish in-flight requests and exit 0.
        """
    static let options: [OptionSpec] = [
        .value("host", "host", help: "Address to listen on.", default: "127.0.0.1", environment: true),
        .value("port", "port", help: "Port to listen on; 0 picks a free one.", default: "8080", environment: true),
        .value(
            "public-url", "url", help: "Base URL the mock advertises in its discovery document.",
            default: "http://HOST:PORT", environment: true),
        .value(
            "state-dir", "dir", help: "Keep signing keys here (created if missing) so restarts keep the same JWKS.",
            environment: true),
    ] + LimitOptions.specs

    var host: String
    var port: Int
    var publicURL: String?
    var stateDirectory: String?
    var limits: LimitOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        host = arguments.value("host") ?? "127.0.0.1"
        guard !host.isEmpty else { throw UsageError("--host must not be empty") }
        port = try arguments.integer("port", in: 0...65535) ?? 8080
        publicURL = arguments.value("public-url")
        if let publicURL {
            guard publicURL.hasPrefix("http://") || publicURL.hasPrefix("https://"), publicURL.count > 8 else {
                throw UsageError(
                    "\(arguments.source(of: "public-url")) must be an http:// or https:// URL, got '\(publicURL)'")
            }
        }
        stateDirectory = arguments.value("state-dir")
        if stateDirectory == "" { throw UsageError("--state-dir must not be empty") }
        limits = try LimitOptions(arguments)
    }

    func run() throws -> Int32 {
        let log = RequestLog()
        var scenario = Scenario.builtIn
        if let stateDirectory {
            scenario.signingKeys = try KeyStateDirectory(path: stateDirectory).apply(to: scenario.signingKeys, log: log)
        }
        // Signals are blocked before any thread starts so that every loop thread inherits the mask
        // and only the main thread's sigwait sees SIGTERM/SIGINT.
        SignalWaiter.blockTerminationSignals()

        var configuration = HTTPServerConfiguration()
        configuration.host = host
        configuration.port = port
        limits.apply(to: &configuration)
        let responder = LateBoundResponder()
        let server = HTTPServer(configuration: configuration, responder: responder, onExchange: { log.record($0) })
        do {
            try server.start()
        } catch {
            throw RuntimeError("cannot listen on \(host):\(port): \(error)")
        }
        let listenURL = "http://\(Self.urlHost(host)):\(server.port)"
        do {
            responder.install(
                try MockServer(
                    configuration: .init(
                        publicURL: publicURL ?? Self.defaultPublicURL(host: host, port: server.port), scenario: scenario, clock: SystemClock(),
                        log: { log.note($0) })))
        } catch {
            server.shutdown()
            throw RuntimeError("\(error)")
        }
        Console().out("siwa-mock listening on \(listenURL)")
        let signal = SignalWaiter.waitForTermination()
        log.note("received signal \(signal), finishing in-flight requests")
        server.shutdown()
        return 0
    }

    /// `http://HOST:PORT`, with a wildcard listen address replaced by loopback (clients cannot connect to 0.0.0.0).
    static func defaultPublicURL(host: String, port: Int) -> String {
        let reachable = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host
        return "http://\(urlHost(reachable)):\(port)"
    }

    /// Hosts as they appear in a URL (`::1` → `[::1]`).
    static func urlHost(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}
