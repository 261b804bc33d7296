import Background
import EventLoop
import HTTP
import RESP
import SIWACore
import SIWAServer
import ScenarioModel
import TLS

/// `siwa-mock serve` (the default command): Apple's endpoints on the built-in or a given scenario,
/// over plain HTTP, HTTPS (`--tls`, impersonating appleid.apple.com with a local CA) or both.
struct ServeCommand: Command {
    static let name = "serve"
    /// How long after the ready line the deferred built-in keys are parsed (see `run`).
    static let keyParseDelayMilliseconds: Int64 = 25
    static let abstract = "Serve Apple's Sign in with Apple endpoints (the default subcommand)."
    static let discussion: String? = """
        When ready it prints `siwa-mock listening on http://HOST:PORT` to stdout, and with --tls one more
        line `siwa-mock listening on https://HOST:TLS-PORT` (only that one with --no-http). Request logs go
        to stderr. SIGTERM or SIGINT finish in-flight requests and exit 0. SIGHUP reloads --scenario
        (without one it is logged and ignored).

        --smtp-port adds the private email relay's SMTP listener and one more ready line
        `siwa-mock smtp listening on HOST:PORT`; with --tls it offers STARTTLS (docs/relay-mail.md).

        --tls without --tls-cert/--tls-key creates a local CA in the TLS directory (--tls-dir, else
        --state-dir, else ~/.local/state/siwa-mock; reused across restarts) and a certificate for
        appleid.apple.com, appleid.cdn-apple.com, localhost, 127.0.0.1, ::1 and every --tls-name. `siwa-mock ca` prints the CA; GET /mock/tls/ca.pem serves it.
        """
    static let host = Option(
        "host", "host", help: "Address to listen on.", default: "127.0.0.1", environment: true, parser: .nonEmpty)
    static let port = Option(
        "port", "port", help: "Port to listen on; 0 picks a free one.", default: 8080, environment: true,
        parser: .integer(in: 0...65535))
    static let publicURL = Option.optional(
        "public-url", "url", help: "Base URL the mock advertises in its discovery document.",
        shownDefault: "http://HOST:PORT", environment: true, parser: .webURL)
    static let stateDirectory = Option.optional(
        "state-dir", "dir", help: "Keep signing keys and the TLS CA here (created if missing) across restarts.",
        environment: true, parser: .nonEmpty)
    static let adminToken = Option.optional(
        "admin-token", "token",
        help: "Require `Authorization: Bearer TOKEN` on every /mock/ call (Apple's endpoints stay open).",
        environment: true, parser: .nonEmpty)
    static let insecureControlAPI = Flag(
        "insecure-control-api",
        help:
            "Serve the control API on a non-loopback --host without --admin-token (refused otherwise; docs/security.md).",
        environment: true)
    static let scenario = Option.optional(
        "scenario", "file",
        help: "Scenario file (YAML subset or JSON) instead of the built-in one; reloaded when it changes.",
        environment: true, parser: .nonEmpty)
    static let notificationAllow = Option.optional(
        "notification-allow", "list",
        help: "Hosts, IP addresses and CIDR ranges server-to-server notifications may go to, comma-separated "
            + "(docs/notifications.md).",
        shownDefault: "any destination", environment: true,
        parser: ValueParser { text throws(OptionValueError) in
            do throws(ClientError) {
                return try DestinationAllowList(parsing: text)
            } catch {
                throw OptionValueError("must list host names, IP addresses or CIDR ranges: \(error.message)")
            }
        })

    static let options: [OptionSpec] =
        [
            host.spec, port.spec, publicURL.spec, stateDirectory.spec, adminToken.spec, insecureControlAPI.spec,
            scenario.spec, notificationAllow.spec, StoreOptions.store.spec, StoreOptions.sharedJournal.spec,
        ]
        + TLSOptions.specs + SMTPOptions.specs + LogOptions.specs + LimitOptions.specs

    var host: String
    var port: Int
    var publicURL: String?
    var stateDirectory: String?
    var adminToken: String?
    /// `--insecure-control-api`: the operator accepts an open control API on a non-loopback address.
    var insecureControlAPI: Bool
    var scenarioFile: String?
    /// Where `scenarioFile` came from: `--scenario` or `SIWA_MOCK_SCENARIO` (named when it is missing).
    var scenarioSource = "--scenario"
    var notificationAllowList: DestinationAllowList?
    var store: RedisEndpoint?
    /// `--shared-journal`: entries kept in the fleet journal; nil keeps the journal per replica.
    var sharedJournal: Int?
    var tls: TLSOptions
    var smtp: SMTPOptions
    var logSettings: LogSettings
    var limits: LimitOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        host = try arguments.read(Self.host)
        port = try arguments.read(Self.port)
        publicURL = try arguments.read(Self.publicURL)
        stateDirectory = try arguments.read(Self.stateDirectory)
        adminToken = try arguments.read(Self.adminToken)
        insecureControlAPI = arguments.read(Self.insecureControlAPI)
        if adminToken == nil && !insecureControlAPI && !Listener.isLoopback(host: host) {
            throw UsageError(Self.openControlAPIRefusal(host: host, source: arguments.source(of: "host")))
        }
        scenarioFile = try arguments.read(Self.scenario)
        scenarioSource = arguments.source(of: "scenario")
        notificationAllowList = try arguments.read(Self.notificationAllow)
        store = try arguments.read(StoreOptions.store)
        sharedJournal = try arguments.read(StoreOptions.sharedJournal)
        if sharedJournal != nil && store == nil {
            throw UsageError(
                "--shared-journal keeps the journal in the shared store: give --store redis://HOST:PORT too "
                    + "(docs/scale-out.md)")
        }
        tls = try TLSOptions(arguments)
        smtp = try SMTPOptions(arguments)
        logSettings = try LogOptions.settings(arguments)
        limits = try LimitOptions(arguments)
    }

    func run() throws -> Int32 {
        let log = RequestLog(settings: logSettings)
        var scenario = Scenario.builtIn
        var origin: (source: String, text: String)?
        // Taken before the file is read: an edit from here on is a change the watcher reloads.
        let loadedStamp = scenarioFile.flatMap(ScenarioFile.stamp)
        if let scenarioFile {
            do {
                let loaded = try ScenarioFile.loadWithText(scenarioFile, log: log)
                scenario = loaded.scenario
                origin = (scenarioFile, loaded.text)
            } catch {
                let hints = ScenarioFile.missingFileHints(scenarioFile, source: scenarioSource)
                throw RuntimeError("cannot load the scenario:\n" + (error.lines + hints).joined(separator: "\n"))
            }
        }
        if let stateDirectory {
            scenario.signingKeys = try KeyStateDirectory(path: stateDirectory).apply(to: scenario.signingKeys, log: log)
        }
        let tlsSetup = try tls.enabled ? tls.setUp(stateDirectory: stateDirectory, log: log) : nil
        // Signals are blocked before any thread starts so that every loop thread inherits the mask
        // and only the main thread's sigwait sees SIGTERM/SIGINT.
        SignalWaiter.blockTerminationSignals()

        // Checks the store every 500 ms (health recovers without traffic); lives as long as `run`.
        let storeScheduler = BackgroundScheduler(maximumThreads: 1)
        let shared = try store.map {
            try StoreOptions.connect(
                $0, scheduler: storeScheduler, scenario: scenario, sharedJournal: sharedJournal, log: log)
        }
        let responder = LateBoundResponder()
        var watcher: ScenarioWatcher? = nil
        var servers: [(server: EventLoopServer, scheme: String)] = []
        var smtpServer: EventLoopServer? = nil
        defer { EventLoopServer.shutdown(servers.map(\.server) + (smtpServer.map { [$0] } ?? [])) }
        if !tls.noHTTP {
            servers.append((try start(port: port, tls: nil, responder: responder, log: log), "http"))
        }
        if let tlsSetup {
            servers.append((try start(port: tls.port, tls: tlsSetup.context, responder: responder, log: log), "https"))
        }
        let first = servers[0]
        let advertised = publicURL ?? Self.defaultPublicURL(host: host, port: first.server.port, scheme: first.scheme)
        let mockHost: MockHost
        do {
            mockHost = try MockHost(
                .init(
                    endpoints: .init(
                        publicURL: advertised, scenario: scenario, log: { log.note($0) },
                        storeFactory: shared?.factory),
                    control: .init(
                        adminToken: adminToken, caCertificatePEM: tlsSetup.map { $0.caPEM ?? "" },
                        notificationAllowList: notificationAllowList, scenarioOrigin: origin,
                        fleetState: shared?.fleet,
                        fleetJournal: shared?.journal.map {
                            FleetJournalWriter(journal: $0, replica: StoreOptions.replicaName(port: first.server.port))
                        }, loopbackGuard: loopbackGuard(publicURL: advertised))))
        } catch {
            throw RuntimeError("\(error)")
        }
        responder.install(mockHost.mock)
        smtpServer = try smtp.start(
            host: host, mock: mockHost.mock, tls: tlsSetup?.context, limits: limits, log: log)
        if let scenarioFile {
            watcher = ScenarioWatcher(path: scenarioFile, server: mockHost.mock, log: log, loadedStamp: loadedStamp)
            watcher?.start(on: mockHost.scheduler)
        }
        if adminToken == nil && !Listener.isLoopback(host: host) {
            log.note(
                "WARNING: the control API (/mock/) is open to anyone who can reach \(host) (--insecure-control-api "
                    + "without --admin-token): they can replace the scenario, users and signing keys",
                level: .warn)
        }
        for (server, scheme) in servers {
            Console().out("siwa-mock listening on \(scheme)://\(Self.urlHost(host)):\(server.port)")
        }
        if let smtpServer { Console().out("siwa-mock smtp listening on \(Self.urlHost(host)):\(smtpServer.port)") }
        // The built-in scenario's keys are parsed by OpenSSL on first use (`ScenarioKeys`): do it soon, off the
        // loops, so the first signature does not wait for it either. Not at once: the parse is ~1 ms of CPU,
        // and on two cores it slowed the first answers while it ran (exec to the first 200 on /auth/keys:
        // 9.1 ms with it, 8.3 ms without; bench/RESULTS.md, "issue #26's fifth pass"). A token request in
        // the first `keyParseDelayMilliseconds` parses the keys itself, once.
        let provider = mockHost.mock.apple.provider
        mockHost.scheduler.schedule(after: Self.keyParseDelayMilliseconds) { provider.keys.parseNow() }
        let signal = SignalWaiter.waitForTermination { [watcher] in
            guard let watcher else { return log.note("received SIGHUP: no --scenario to reload, ignoring it") }
            log.note("received SIGHUP: reloading \(watcher.path)")
            watcher.reloadRequested()
        }
        log.note("received signal \(signal), finishing in-flight requests")
        // Background jobs (a key being generated, a notification attempt) get a moment to finish.
        mockHost.stop()
        return 0
    }

    private func start(port: Int, tls: TLSServerContext?, responder: any HTTPResponder, log: RequestLog) throws
        -> EventLoopServer
    {
        var configuration = HTTPServerConfiguration()
        configuration.listener.host = host
        configuration.listener.port = port
        limits.apply(to: &configuration)
        configuration.listener.tls = tls
        // Above `info` the log writes only 5xx exchanges (`RequestLog.level(of:)`): record no others.
        configuration.recordedStatusFloor = logSettings.minimumLevel > .info ? 500 : 0
        let server = EventLoopServer(
            configuration: configuration, responder: responder, onExchanges: { log.record($0) },
            onDiagnostic: { log.record($0) })
        do {
            try server.start()
        } catch let error as ListenError {
            guard error.kind == .addressInUse else { throw RuntimeError(error.message) }
            // Said once, with the way out: another port, or 0 for any free one.
            let option = tls == nil ? Self.port.spec : TLSOptions.port.spec
            throw RuntimeError(
                "\(error.message); choose another port with --\(option.name) <port> or \(option.environment ?? "")"
                    + " (0 picks a free one and prints it)")
        } catch {
            throw RuntimeError("cannot listen on \(host):\(port): \(error)")
        }
        return server
    }

    /// Why `serve` will not start on a reachable address with an open control API, and the ways out.
    /// Without `--admin-token` on a loopback address: the control API's DNS-rebinding and cross-origin
    /// guard, accepting the TLS certificate's names (when serving TLS) and the public URL's host as well
    /// as loopback names (docs/security.md). Nil with a token, or on another address
    /// (`--insecure-control-api`: the user accepted an open control API).
    func loopbackGuard(publicURL: String) -> LoopbackGuard? {
        guard adminToken == nil, Listener.isLoopback(host: host) else { return nil }
        var names = tls.enabled ? TLSStateDirectory.defaultNames + tls.names : []
        if let separator = publicURL.firstRange(of: "://") {
            let rest = publicURL[separator.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            if let name = LoopbackGuard.hostName(ofAuthority: String(authority)) { names.append(name) }
        }
        return LoopbackGuard(extraNames: names)
    }

    static func openControlAPIRefusal(host: String, source: String) -> String {
        "\(source) \(host) is not a loopback address and no --admin-token is set: anyone who can reach it "
            + "could replace the scenario, users and signing keys through /mock/. Set --admin-token TOKEN "
            + "(SIWA_MOCK_ADMIN_TOKEN), listen on 127.0.0.1, or accept the risk on a network you trust with "
            + "--insecure-control-api (SIWA_MOCK_INSECURE_CONTROL_API=true); see docs/security.md"
    }

    /// `http://HOST:PORT`, with a wildcard listen address replaced by loopback (clients cannot connect to 0.0.0.0).
    static func defaultPublicURL(host: String, port: Int, scheme: String = "http") -> String {
        let reachable = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host
        return "\(scheme)://\(urlHost(reachable)):\(port)"
    }

    /// Hosts as they appear in a URL (`::1` → `[::1]`).
    static func urlHost(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}
