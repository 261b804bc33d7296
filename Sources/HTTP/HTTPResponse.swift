/// A response as a value. The server adds `Content-Length`, `Date`-free framing and `Connection`.
package struct HTTPResponse: Sendable {
    package var status: HTTPStatus { didSet { wire = nil } }
    package var headers: HTTPHeaders { didSet { wire = nil } }
    package var body: [UInt8] { didSet { wire = nil } }
    /// The whole response serialized once for the usual exchange (body included, kept alive, HTTP/1.1),
    /// for an answer built once and sent many times (`prepared()`); any change to status, fields or body
    /// drops it.
    var wire: PreparedResponse?
    /// How the bytes reach the client: normally, or with an injected fault (scenario fault rules).
    package var delivery: Delivery
    /// Facts for the request log (`client_id`, `user`, `fault`…), never sent to the client. Put only
    /// fingerprints of secrets here.
    package var logFields: [String: String] = [:]

    package init(
        status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], delivery: Delivery = .normal
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delivery = delivery
    }

    /// Fault injection at the connection level. Every case is handled without blocking the event loop.
    package enum Delivery: Sendable, Equatable {
        case normal
        /// Wait, then send normally.
        case delayed(milliseconds: Int)
        /// Close with RST (SO_LINGER 0) instead of answering.
        case reset
        /// Close cleanly (FIN) without sending anything.
        case closeWithoutResponse
        /// Send the head and half the body, then close.
        case truncatedBody
        /// Send the response `chunkSize` bytes at a time, `intervalMilliseconds` apart.
        case slowBody(chunkSize: Int, intervalMilliseconds: Int)
        /// The response is finished on another thread (`DeferredResponse`); this one is a placeholder.
        case deferred(DeferredResponse)
    }
}
