import HTTPServer

/// `siwa-mock health`: exits 0 when a mock answers `GET /mock/health` with 200 — a container
/// HEALTHCHECK that needs no curl or wget in the image.
struct HealthCommand: Command {
    static let name = "health"
    static let abstract = "Check that a running mock answers /mock/health (exit 0 healthy, 1 not)."
    static let discussion: String? = """
        Example (Dockerfile): HEALTHCHECK CMD ["siwa-mock", "health"]
        Without --url it checks http://127.0.0.1:PORT with PORT from --port or SIWA_MOCK_PORT (the variable
        `serve` reads too, so a container's check follows its port). A path in --url is replaced by /mock/health.
        """
    static let options: [OptionSpec] = [
        .value("url", "url", help: "Base URL of the mock (http:// only).", default: "http://127.0.0.1:PORT"),
        .value(
            "port", "port", help: "Port of the mock on 127.0.0.1 when --url is not given.", default: "8080",
            environment: true),
        .value("timeout", "ms", help: "Give up after this many milliseconds.", default: "3000"),
    ]

    var url: String
    var timeoutMilliseconds: Int

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let port = try arguments.integer("port", in: 1...65535) ?? 8080
        url = arguments.value("url") ?? "http://127.0.0.1:\(port)"
        guard url.lowercased().hasPrefix("http://") else {
            throw UsageError("--url must be an http:// URL (the health check uses the plain listener), got '\(url)'")
        }
        timeoutMilliseconds = try arguments.integer("timeout", in: 1...600_000) ?? 3000
    }

    func run() throws -> Int32 {
        let request = HTTPClientRequest(method: "GET", target: "/mock/health")
        let response: HTTPClientResponse
        do {
            response = try HTTPClient.send(request, to: url, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            Console().err("unhealthy: \(url)/mock/health: \(error)")
            return 1
        }
        guard response.status == 200 else {
            Console().err("unhealthy: \(url)/mock/health answered \(response.status)")
            return 1
        }
        Console().out("healthy: \(url)")
        return 0
    }
}
