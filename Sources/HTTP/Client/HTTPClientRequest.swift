/// A request for `HTTPClient`; `Host`, `Content-Length` and `Connection` are added when sent.
package struct HTTPClientRequest: Sendable {
    package var method: String
    /// Origin-form target such as `/auth/keys?x=1`; empty means the URL's path (see `HTTPClient.send(_:to:)`).
    package var target: String
    package var headers: HTTPHeaders
    package var body: [UInt8]

    package init(method: String = "GET", target: String = "", headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [])
    {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The request as bytes on the wire.
    func serialized(host: String, keepAlive: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + body.count)
        out.append(contentsOf: "\(method) \(target.isEmpty ? "/" : target) HTTP/1.1\r\n".utf8)
        if !headers.contains("Host") { out.append(contentsOf: "Host: \(host)\r\n".utf8) }
        for field in headers.fields where !HTTPResponse.isFramingField(field.name) {
            HTTPResponse.appendSanitized(field.name, to: &out)
            out.append(contentsOf: ": ".utf8)
            HTTPResponse.appendSanitized(field.value, to: &out)
            out.append(contentsOf: "\r\n".utf8)
        }
        if !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" {
            out.append(contentsOf: "Content-Length: \(body.count)\r\n".utf8)
        }
        if !keepAlive { out.append(contentsOf: "Connection: close\r\n".utf8) }
        out.append(contentsOf: "\r\n".utf8)
        out.append(contentsOf: body)
        return out
    }
}

/// A response received by `HTTPClient`.
package struct HTTPClientResponse: Sendable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// True when the body was cut at the connection's `maximumBodyBytes` (the rest was never read; the
    /// connection cannot carry another exchange).
    package var isTruncated = false

    package init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text (invalid bytes repaired), for logs and tests.
    package var bodyText: String { String(decoding: body, as: UTF8.self) }
}
