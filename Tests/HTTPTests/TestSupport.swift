import EventLoop
import HTTP
import SIWACore

/// A responder built from a closure.
struct ClosureResponder: HTTPResponder {
    let body: @Sendable (HTTPRequest) -> HTTPResponse
    func respond(to request: HTTPRequest) -> HTTPResponse { body(request) }
}

/// Starts a server on 127.0.0.1 with an ephemeral port and small timeouts; shuts it down after `body`.
func withServer<R>(
    loops: Int = 1,
    configure: (inout HTTPServerConfiguration) -> Void = { _ in },
    onExchange: (@Sendable (HTTPExchangeRecord) -> Void)? = nil,
    respond: @escaping @Sendable (HTTPRequest) -> HTTPResponse = echoResponder,
    _ body: (EventLoopServer) throws -> R
) throws -> R {
    var configuration = HTTPServerConfiguration()
    configuration.listener.host = "127.0.0.1"
    configuration.listener.port = 0
    configuration.listener.eventLoops = loops
    configure(&configuration)
    let server = EventLoopServer(
        configuration: configuration, responder: ClosureResponder(body: respond), onExchange: onExchange)
    try server.start()
    defer { server.shutdown() }
    return try body(server)
}

/// Answers `METHOD TARGET BODYLENGTH` as text.
@Sendable func echoResponder(_ request: HTTPRequest) -> HTTPResponse {
    HTTPResponse(
        status: 200, headers: HTTPHeaders([("Content-Type", "text/plain")]),
        body: Array("\(request.method) \(request.target) \(request.body.count)".utf8))
}

func connect(_ server: EventLoopServer, timeout: Int = 5_000) throws -> ClientConnection {
    try ClientConnection(host: "127.0.0.1", port: server.port, timeoutMilliseconds: timeout)
}

/// Parses all requests in `bytes` fed in the given chunk sizes.
func parseAll(_ bytes: [UInt8], chunks: [Int], limits: HTTPRequestParser.Limits = .init()) -> [HTTPRequestParser.Result]
{
    var parser = HTTPRequestParser(limits: limits)
    var results: [HTTPRequestParser.Result] = []
    var offset = 0
    var chunkIndex = 0
    while offset < bytes.count {
        let size = min(max(1, chunks[chunkIndex % chunks.count]), bytes.count - offset)
        chunkIndex += 1
        parser.append(bytes[offset..<(offset + size)])
        offset += size
        loop: while true {
            let result = parser.next()
            switch result {
            case .needMoreData: break loop
            case .request: results.append(result)
            case .reject:
                results.append(result)
                return results
            }
        }
    }
    return results
}

extension HTTPRequestParser.Result {
    var request: HTTPRequest? {
        if case .request(let request) = self { return request }
        return nil
    }
    var rejectStatus: Int? {
        if case .reject(let status, _) = self { return status }
        return nil
    }
}

/// The status a single request in `text` gets from the parser (nil when it needs more data or parses).
func rejectStatus(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> Int? {
    var parser = HTTPRequestParser(limits: limits)
    parser.append(Array(text.utf8))
    return parser.next().rejectStatus
}
