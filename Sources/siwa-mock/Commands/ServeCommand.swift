import HTTPServer

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
    ]

    var host: String
    var port: Int
    var publicURL: String?
    var stateDirectory: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        host = arguments.value("host") ?? "127.0.0.1"
        guard !host.isEmpty else { throw UsageError("--host must not be empty") }
        port = try arguments.integer("port", in: 0...65535) ?? 8080
        publicURL = arguments.value("public-url")
        if let publicURL {
            guard publicURL.hasPrefix("http://") || publicURL.hasPrefix("https://") else {
                throw UsageError("\(arguments.source(of: "public-url")) must start with http:// or https://, got '\(publicURL)'")
            }
        }
        stateDirectory = arguments.value("state-dir")
    }

    func run() throws -> Int32 {
        fatalError("serve is wired once the Apple endpoints land")
    }
}
