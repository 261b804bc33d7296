/// A complete HTTP/1.1 request as the parser delivers it.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The request-target as sent, e.g. `/auth/authorize?client_id=x`.
    public var target: String
    /// The path part of the target, percent-encoding left as sent.
    public var path: String
    /// The raw query string after `?`, without the `?`; nil when there is none.
    public var query: String?
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Peer address as text (`127.0.0.1:53211`), for logs and the journal.
    public var remoteAddress: String

    public init(
        method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        remoteAddress: String = "-"
    ) {
        self.method = method
        self.target = target
        if let q = target.firstIndex(of: "?") {
            self.path = String(target[..<q])
            self.query = String(target[target.index(after: q)...])
        } else {
            self.path = target
            self.query = nil
        }
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }
}
