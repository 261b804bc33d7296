import EventLoop
import HTTP

/// Serves a responder on a loopback port and sends each request over a fresh connection, with the
/// project's one HTTP client (`ClientConnection`).
package final class LiveClient: TestClient, @unchecked Sendable {
    // @unchecked: `server` is only started in init and stopped in `stop()`; EventLoopServer is thread-safe.
    let server: EventLoopServer
    package let port: Int

    package init(responder: any HTTPResponder) throws {
        var configuration = HTTPServerConfiguration()
        configuration.listener.port = 0
        configuration.listener.eventLoops = 1
        server = EventLoopServer(configuration: configuration, responder: responder)
        try server.start()
        port = server.port
    }

    package func stop() { server.shutdown() }

    package func send(_ request: HTTPRequest) throws -> TestResponse {
        let connection = try ClientConnection(host: "127.0.0.1", port: port)
        let response = try connection.send(
            HTTPClientRequest(
                method: request.method.rawValue, target: request.target, headers: request.headers, body: request.body),
            keepAlive: false)
        return TestResponse(status: response.status, headers: response.headers, body: response.body)
    }
}
