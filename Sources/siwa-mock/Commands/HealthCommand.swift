import HTTP

#if canImport(Glibc)
    import Glibc
#endif

/// `siwa-mock health`: exits 0 when a mock answers `GET /mock/health` with 200 — a container
/// HEALTHCHECK that needs no curl or wget in the image, and with `--wait` the "is it up yet" step of a
/// shell script that starts the mock in the background.
struct HealthCommand: Command {
    static let name = "health"
    static let abstract = "Check that a running mock answers /mock/health (exit 0 healthy, 1 not)."
    static let discussion: String? = """
        Example (Dockerfile): HEALTHCHECK CMD ["siwa-mock", "health"]
        Example (script):     siwa-mock serve --port 8080 & siwa-mock health --wait 10s
        Without --url it checks http://127.0.0.1:PORT with PORT from --port or SIWA_MOCK_PORT (the variable
        `serve` reads too, so a container's check follows its port). A path in --url is replaced by /mock/health.
        With --wait it retries every 100ms until the mock is healthy or the duration has passed; a server
        that answers but is not a siwa-mock fails at once.
        """
    static let url = Option.optional(
        "url", "url", help: "Base URL of the mock (http:// only).", shownDefault: "http://127.0.0.1:PORT",
        parser: .httpURL)
    static let port = Option(
        "port", "port", help: "Port of the mock on 127.0.0.1 when --url is not given.",
        default: ServeCommand.port.defaultValue, environment: true, parser: .integer(in: 1...65535))
    static let timeout = Option(
        "timeout", "ms", help: "Give up on one attempt after this many milliseconds.", default: 3000,
        parser: .integer(in: 1...600_000))
    static let wait = Option.optional(
        "wait", "duration", help: "Keep trying until healthy for up to this long (10s, 1m).", parser: .duration)
    static let options: [OptionSpec] = [url.spec, port.spec, timeout.spec, wait.spec]

    var url: String
    var timeoutMilliseconds: Int
    var waitMilliseconds: Int64?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let given = try arguments.read(Self.url)
        if let given {
            url = given
        } else {
            url = "http://127.0.0.1:\(try arguments.read(Self.port))"
        }
        timeoutMilliseconds = try arguments.read(Self.timeout)
        waitMilliseconds = try arguments.read(Self.wait)
    }

    /// One probe: nil when healthy, else why not and whether trying again could help.
    func probe(timeoutMilliseconds: Int) -> (problem: String, retry: Bool)? {
        let request = HTTPClientRequest(method: "GET", target: ControlClient.healthPath)
        let response: HTTPClientResponse
        do {
            response = try HTTPClient.send(request, to: url, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            return ("\(url)\(ControlClient.healthPath): \(error)", true)
        }
        // 503 is what a mock answers while it is still starting or draining; try again. Any other answer
        // but a mock's 200 is another server on the port (a web server's 404, a proxy's 501 page).
        if response.status == 503 { return ("\(url)\(ControlClient.healthPath) answered 503", true) }
        if let problem = ControlClient.notAMock(response) { return ("\(url): \(problem)", false) }
        return nil
    }

    func run() throws -> Int32 {
        let clock = ContinuousClock()
        let start = clock.now
        let wait = Duration.milliseconds(waitMilliseconds ?? 0)
        while true {
            let left = wait - start.duration(to: clock.now)
            let attempt =
                waitMilliseconds == nil ? timeoutMilliseconds : max(1, min(timeoutMilliseconds, left.milliseconds))
            guard let (problem, retry) = probe(timeoutMilliseconds: attempt) else {
                Console().out("healthy: \(url)")
                return 0
            }
            let waited = start.duration(to: clock.now)
            guard retry, waitMilliseconds != nil, waited + .milliseconds(100) < wait else {
                let after = waitMilliseconds == nil ? "" : " after waiting \(waited.milliseconds)ms"
                Console().err("unhealthy\(after): \(problem)")
                return 1
            }
            usleep(100_000)
        }
    }
}

extension Duration {
    /// Whole milliseconds, clamped to `Int`.
    fileprivate var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
