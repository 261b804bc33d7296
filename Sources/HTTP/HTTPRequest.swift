/// A complete HTTP/1.1 request as the parser delivers it.
package struct HTTPRequest: Sendable {
    package var method: HTTPMethod
    /// The request-target as sent, e.g. `/auth/authorize?client_id=x`.
    package var target: String
    /// The path part of the target, percent-encoding left as sent.
    package var path: String
    /// The raw query string after `?`, without the `?`; nil when there is none.
    package var query: String?
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// Peer address as text (`127.0.0.1:53211`), for logs and the journal.
    package var remoteAddress: String
    /// The version from the request line; 1.1 for requests built in code.
    package var version: HTTPVersion
    /// Whether the client lets the connection stay open after this exchange (RFC 9112 §9.3):
    /// HTTP/1.1 unless `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`.
    package var keepAlive: Bool

    // The parser builds requests with the synthesized memberwise init (`path` and `query` already sliced
    // from the target's bytes): a hand-written init that assigns the Optional `query` builds the request,
    // then copies it field by field (Swift 6.3).
}

extension HTTPRequest {
    /// A request built in code (clients, tests): `path` and `query` are split from `target` here.
    package init(
        method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        remoteAddress: String = "-", version: HTTPVersion = .http11, keepAlive: Bool = true
    ) {
        self.method = method
        self.target = target
        if let q = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            self.path = String(target[..<q])
            self.query = String(target[target.utf8.index(after: q)...])
        } else {
            self.path = target
            self.query = nil
        }
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.version = version
        self.keepAlive = keepAlive
    }
}
