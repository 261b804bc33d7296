import HTTP
import JSON

#if canImport(Glibc)
    import Glibc
#endif

/// Talks to a running mock's control API for the driving verbs (`credential`, `notify`, `clock`,
/// `requests`, `reset`, `users`, `keys`, `faults`): sends one request, prints the JSON answer, maps
/// failures to exit statuses, and says so when the URL is not a siwa-mock at all.
struct ControlClient: Sendable {
    /// `--url`, also read by `verify`.
    static let url = Option(
        "url", "url", help: "Base URL of the running mock.", default: "http://127.0.0.1:8080", environment: true,
        parser: .httpURL)
    static let adminToken = Option.optional(
        "admin-token", "token", help: "Bearer token when the mock runs with --admin-token.", environment: true,
        parser: .nonEmpty)
    /// Options every driving verb accepts.
    static let options: [OptionSpec] = [url.spec, adminToken.spec]

    var baseURL: String
    var adminToken: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        baseURL = try arguments.read(Self.url)
        adminToken = try arguments.read(Self.adminToken)
    }

    /// One control API request a verb decided on from its arguments.
    struct Call: Sendable {
        var method: String
        var target: String
        var body: [UInt8]?
        /// How long the server may take: longer for a call that waits on purpose (`mail list --wait`).
        var timeoutMilliseconds = ControlClient.timeoutMilliseconds

        init(_ method: String, _ target: String, body: [UInt8]? = nil) {
            self.method = method
            self.target = target
            self.body = body
        }

        init(_ method: String, _ target: String, json: JSONObject) {
            self.init(method, target, body: JSONValue.object(json).serialized())
        }
    }

    /// How long a control call may take by default.
    static let timeoutMilliseconds = 15_000

    func run(_ call: Call) throws(RuntimeError) -> Int32 {
        try run(call.method, call.target, bodyBytes: call.body, timeoutMilliseconds: call.timeoutMilliseconds)
    }

    /// Sends the call and prints the body: stdout and 0 on 2xx, stderr and 1 otherwise.
    func run(_ method: String, _ target: String, body: JSONValue? = nil) throws(RuntimeError) -> Int32 {
        try run(method, target, bodyBytes: body?.serialized())
    }

    /// As `run(_:_:body:)` with a body already in bytes (a fault rule in the scenario syntax).
    func run(
        _ method: String, _ target: String, bodyBytes: [UInt8]?,
        timeoutMilliseconds: Int = ControlClient.timeoutMilliseconds
    ) throws(RuntimeError) -> Int32 {
        var headers = HTTPHeaders()
        if bodyBytes != nil { headers.add("Content-Type", "application/json") }
        if let adminToken { headers.add("Authorization", "Bearer \(adminToken)") }
        let request = HTTPClientRequest(method: method, target: target, headers: headers, body: bodyBytes ?? [])
        // One attempt: calls that depend on background work (a key rotation right after start) wait for
        // it on the server and answer when done; a 503 is a real outage, reported as such.
        let response: HTTPClientResponse
        do {
            response = try HTTPClient.send(request, to: baseURL + target, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw RuntimeError("cannot reach the mock at \(baseURL): \(error.message)")
        }
        if !response.body.isEmpty && !Self.isJSON(response) { try confirmMock(at: baseURL) }
        let text = response.bodyText
        if (200..<300).contains(response.status) {
            if !text.isEmpty { Console().out(text) }
            return 0
        }
        Console().err("HTTP \(response.status): \(text)")
        return 1
    }

    /// Throws "not a siwa-mock" unless `GET /mock/health` answers as a mock does (200, JSON status ok):
    /// a non-JSON answer from a verb's own path is then the mock's, and is shown as it came.
    func confirmMock(at base: String) throws(RuntimeError) {
        let response: HTTPClientResponse
        do {
            response = try HTTPClient.send(
                HTTPClientRequest(target: Self.healthPath), to: base + Self.healthPath, timeoutMilliseconds: 5000)
        } catch {
            throw RuntimeError("\(base): not a siwa-mock (\(Self.healthPath) failed: \(error.message))")
        }
        if let problem = Self.notAMock(response) { throw RuntimeError("\(base): \(problem)") }
    }

    static let healthPath = "/mock/health"

    /// Nil when `response` is a mock's answer to `GET /mock/health`; otherwise what makes it not one,
    /// such as "not a siwa-mock (got text/html 200 from /mock/health)".
    static func notAMock(_ response: HTTPClientResponse) -> String? {
        if response.status == 200, isJSON(response),
            (try? JSONValue.parse(response.body))?["status"]?.stringValue == "ok"
        {
            return nil
        }
        let type = response.headers.contentType.map { String($0.prefix { $0 != ";" }) } ?? "no Content-Type"
        return "not a siwa-mock (got \(type) \(response.status) from \(healthPath))"
    }

    static func isJSON(_ response: HTTPClientResponse) -> Bool {
        response.headers.mediaType == "application/json"
    }

    /// `name=value&…` with percent-encoding, for GET filters.
    static func query(_ pairs: [(String, String?)]) -> String {
        let present = pairs.compactMap { pair in pair.1.map { (pair.0, $0) } }
        return present.isEmpty ? "" : "?" + URLEncodedForm.encode(present)
    }
}

/// A verb whose whole run is one control API call chosen from its arguments (`users`, `keys`,
/// `faults`, `reset`): the verb only says which call; sending and printing are `ControlClient`'s.
protocol ControlVerb: Command {
    static func call(_ arguments: ParsedArguments) throws(UsageError) -> ControlClient.Call
    init(client: ControlClient, call: ControlClient.Call)
    var client: ControlClient { get }
    var call: ControlClient.Call { get }
}

extension ControlVerb {
    static var options: [OptionSpec] { ControlClient.options }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        self.init(client: try ControlClient(arguments), call: try Self.call(arguments))
    }

    func run() throws -> Int32 { try client.run(call) }
}
