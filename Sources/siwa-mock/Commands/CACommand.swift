import HTTP
import SIWAServer

/// `siwa-mock ca`: prints the local CA certificate that `serve --tls` uses, so a test environment can
/// trust it (`siwa-mock ca > siwa-ca.pem`).
struct CACommand: Command {
    static let name = "ca"
    static let abstract = "Print the local CA certificate (PEM) that `serve --tls` issues its certificate from."
    static let discussion: String? = """
        Reads the CA from the TLS directory (--tls-dir, else --state-dir, else ~/.local/state/siwa-mock),
        creating it there when missing, so it can run before the server starts. With --url it fetches the
        CA from a running mock instead (GET /mock/tls/ca.pem).
        Trust it with e.g. SSL_CERT_FILE / REQUESTS_CA_BUNDLE (Python), NODE_EXTRA_CA_CERTS (Node),
        keytool -importcert (Java) or curl --cacert.
        """
    static let url = Option.optional(
        "url", "url", help: "Fetch the CA from a running mock at this http:// base URL instead.", parser: .httpURL)
    static let options: [OptionSpec] = [ServeCommand.stateDirectory.spec, TLSOptions.directory.spec, url.spec]

    var directory: String
    var url: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        var chosen = try arguments.read(TLSOptions.directory)
        if chosen == nil { chosen = try arguments.read(ServeCommand.stateDirectory) }
        directory = TLSStateDirectory.resolve(chosen)
        url = try arguments.read(Self.url)
    }

    func run() throws -> Int32 {
        if let url {
            let base = url
            let response: HTTPClientResponse
            do {
                response = try HTTPClient.send(
                    HTTPClientRequest(), to: base + MockServer.caCertificatePath, timeoutMilliseconds: 5000)
            } catch {
                throw RuntimeError("cannot fetch the CA from \(base): \(error)")
            }
            guard response.status == 200 else {
                throw RuntimeError(
                    "\(base)\(MockServer.caCertificatePath) answered \(response.status) (is the mock running with --tls?)"
                )
            }
            Console().out(String(decoding: response.body, as: UTF8.self), terminator: "")
            return 0
        }
        let authority = try TLSStateDirectory(path: directory).authority()
        Console().out(authority.certificatePEM, terminator: "")
        return 0
    }
}
