import HTTPServer
import JSON

/// A response as a test sees it, whichever transport carried it.
public struct TestResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object (nil when it is not one).
    public var json: JSONObject? { (try? JSONValue.parse(body))?.objectValue }

    /// `error` of an Apple error body.
    public var error: String? { json?["error"]?.stringValue }
    public var errorDescription: String? { json?["error_description"]?.stringValue }
}

/// Sends requests to the endpoints: directly, or over a loopback socket.
public protocol TestClient: Sendable {
    func send(_ request: HTTPRequest) throws -> TestResponse
}

/// Calls the responder in-process.
public struct InProcessClient: TestClient {
    public let responder: any HTTPResponder

    public init(responder: any HTTPResponder) {
        self.responder = responder
    }

    public func send(_ request: HTTPRequest) throws -> TestResponse {
        let response = responder.respond(to: request)
        return TestResponse(status: response.status.code, headers: response.headers, body: response.body)
    }
}

/// How an endpoint test reaches the server; endpoint tests run once per case.
public enum Transport: String, Sendable, CaseIterable, CustomStringConvertible {
    case inProcess
    case live

    public var description: String { rawValue }

    /// Runs `body` with a client of this kind over `responder`; a live server is stopped afterwards.
    public func withClient<T>(_ responder: any HTTPResponder, _ body: (any TestClient) throws -> T) throws -> T {
        switch self {
        case .inProcess:
            return try body(InProcessClient(responder: responder))
        case .live:
            let client = try LiveClient(responder: responder)
            defer { client.stop() }
            return try body(client)
        }
    }
}
