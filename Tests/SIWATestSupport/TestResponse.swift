import Dispatch
import HTTP
import JSON
import Synchronization

/// A response as a test sees it, whichever transport carried it.
package struct TestResponse: Sendable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]

    package init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object (nil when it is not one).
    package var json: JSONObject? { (try? JSONValue.parse(body))?.objectValue }

    /// `error` of an Apple error body.
    package var error: String? { json?["error"]?.stringValue }
    package var errorDescription: String? { json?["error_description"]?.stringValue }
}

/// Sends requests to the endpoints: directly, or over a loopback socket.
package protocol TestClient: Sendable {
    func send(_ request: HTTPRequest) throws -> TestResponse
}

/// Calls the responder in-process.
package struct InProcessClient: TestClient {
    package let responder: any HTTPResponder

    package init(responder: any HTTPResponder) {
        self.responder = responder
    }

    package func send(_ request: HTTPRequest) throws -> TestResponse {
        var response = responder.respond(to: request)
        // Work finished on a background thread (a key rotation waiting for a key): wait for it, as the
        // event loop does, up to 30 s.
        if case .deferred(let pending) = response.delivery {
            let done = DispatchSemaphore(value: 0)
            let box = Mutex<HTTPResponse?>(nil)
            pending.whenFulfilled { finished in
                box.withLock { $0 = finished }
                done.signal()
            }
            guard done.wait(timeout: .now() + 30) == .success, let finished = box.withLock({ $0 }) else {
                throw DeferredTimeout()
            }
            response = finished
        }
        return TestResponse(status: response.status.code, headers: response.headers, body: response.body)
    }

    /// A deferred response that never came.
    struct DeferredTimeout: Error {}
}

/// How an endpoint test reaches the server; endpoint tests run once per case.
package enum Transport: String, Sendable, CaseIterable, CustomStringConvertible {
    case inProcess
    case live

    package var description: String { rawValue }

    /// Runs `body` with a client of this kind over `responder`; a live server is stopped afterwards.
    package func withClient<T>(_ responder: any HTTPResponder, _ body: (any TestClient) throws -> T) throws -> T {
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
