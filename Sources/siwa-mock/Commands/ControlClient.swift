import HTTPServer
import JSON

/// Talks to a running mock's control API for the driving verbs (`credential`, `notify`, `clock`,
/// `requests`): sends one JSON request, prints the JSON answer, maps failures to exit statuses.
struct ControlClient: Sendable {
    /// Options every driving verb accepts.
    static let options: [OptionSpec] = [
        .value(
            "url", "url", help: "Base URL of the running mock.", default: "http://127.0.0.1:8080", environment: true),
        .value("admin-token", "token", help: "Bearer token when the mock runs with --admin-token.", environment: true),
    ]

    var baseURL: String
    var adminToken: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        var url = arguments.value("url") ?? "http://127.0.0.1:8080"
        guard url.hasPrefix("http://"), url.count > 7 else {
            throw UsageError("\(arguments.source(of: "url")) must be an http:// URL, got '\(url)'")
        }
        while url.hasSuffix("/") { url.removeLast() }
        baseURL = url
        adminToken = arguments.value("admin-token")
    }

    /// Sends the call and prints the body: stdout and 0 on 2xx, stderr and 1 otherwise.
    func run(_ method: String, _ target: String, body: JSONValue? = nil) throws -> Int32 {
        var headers = HTTPHeaders()
        if body != nil { headers.add("Content-Type", "application/json") }
        if let adminToken { headers.add("Authorization", "Bearer \(adminToken)") }
        let request = HTTPClientRequest(
            method: method, target: target, headers: headers, body: body?.serialized() ?? [])
        let response: HTTPClientResponse
        do {
            response = try HTTPClient.send(request, to: baseURL + target, timeoutMilliseconds: 15_000)
        } catch {
            throw RuntimeError("cannot reach the mock at \(baseURL): \(error.message)")
        }
        if (200..<300).contains(response.status) {
            Console().out(response.bodyText)
            return 0
        }
        Console().err("HTTP \(response.status): \(response.bodyText)")
        return 1
    }

    /// `name=value&…` with percent-encoding, for GET filters.
    static func query(_ pairs: [(String, String?)]) -> String {
        let present = pairs.compactMap { pair in pair.1.map { (pair.0, $0) } }
        return present.isEmpty ? "" : "?" + URLEncodedForm.encode(present)
    }
}
