import EventLoop
import TLS

/// A small blocking HTTP/1.1 client for health checks, tests and outgoing webhooks; `https://` only when
/// the caller passes a ``TLSClientContext`` (notifications stay on plain `http://`).
package enum HTTPClient {
    /// Sends one request on a fresh connection and closes it.
    /// - Parameters:
    ///   - timeoutMilliseconds: the whole exchange, from connecting to the last body byte.
    ///   - maximumBodyBytes: the most response body bytes read (the response then says `isTruncated`).
    ///   - allowList: addresses the connection may go to; others fail with `.destinationNotAllowed`.
    package static func send(
        _ request: HTTPClientRequest, host: String, port: Int, timeoutMilliseconds: Int = 10_000,
        maximumBodyBytes: Int? = nil, allowList: DestinationAllowList? = nil
    ) throws(ClientError) -> HTTPClientResponse {
        let connection = try ClientConnection(
            host: host, port: port, timeoutMilliseconds: timeoutMilliseconds,
            deadlineMilliseconds: timeoutMilliseconds, allowList: allowList)
        connection.maximumBodyBytes = maximumBodyBytes
        return try connection.send(request, keepAlive: false)
    }

    /// Sends one request to `http://host[:port][/path[?query]]`. The URL's path and query are the target
    /// when `request.target` is empty; otherwise `request.target` wins. Parameters as above.
    ///   - tls: with a context, `https://` URLs too (the server's certificate verified against it).
    package static func send(
        _ request: HTTPClientRequest, to url: String, timeoutMilliseconds: Int = 10_000,
        maximumBodyBytes: Int? = nil, allowList: DestinationAllowList? = nil, tls: TLSClientContext? = nil
    ) throws(ClientError) -> HTTPClientResponse {
        var request = request
        guard let tls, url.lowercased().hasPrefix("https://") else {
            let parsed = try parse(url: url)
            if request.target.isEmpty { request.target = parsed.target }
            return try send(
                request, host: parsed.host, port: parsed.port, timeoutMilliseconds: timeoutMilliseconds,
                maximumBodyBytes: maximumBodyBytes, allowList: allowList)
        }
        let parsed = try parse(url: url, scheme: "https", defaultPort: 443)
        if request.target.isEmpty { request.target = parsed.target }
        let connection = try ClientConnection(
            host: parsed.host, port: parsed.port, timeoutMilliseconds: timeoutMilliseconds,
            deadlineMilliseconds: timeoutMilliseconds, allowList: allowList)
        try connection.startTLS(tls, serverName: parsed.host)
        connection.maximumBodyBytes = maximumBodyBytes
        return try connection.send(request, keepAlive: false)
    }

    /// `host:port` of an `http://` URL (lowercased), e.g. to group requests by destination; nil when
    /// the URL is not one `send` accepts.
    package static func destination(of url: String) -> String? {
        guard let parsed = try? parse(url: url) else { return nil }
        return "\(parsed.host.lowercased()):\(parsed.port)"
    }

    /// Splits an `http://` (or `scheme://`) URL into host, port (default 80) and target (default `/`).
    static func parse(
        url: String, scheme: String = "http", defaultPort: Int = 80
    ) throws(ClientError) -> (host: String, port: Int, target: String) {
        let invalid = ClientError(.invalidURL, "not an \(scheme):// URL: '\(url)'")
        guard url.lowercased().hasPrefix("\(scheme)://") else { throw invalid }
        let rest = url.dropFirst(scheme.count + 3)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var target = String(rest[authorityEnd...])
        if let fragment = target.firstIndex(of: "#") { target = String(target[..<fragment]) }
        if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
        var host = Substring(authority)
        var port = defaultPort
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw invalid }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let value = Int(after.dropFirst()), (1...65535).contains(value) else { throw invalid }
                port = value
            } else if !after.isEmpty {
                throw invalid
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            guard let value = Int(authority[authority.index(after: colon)...]), (1...65535).contains(value) else {
                throw invalid
            }
            port = value
        }
        guard !host.isEmpty, !host.contains("@") else { throw invalid }
        return (String(host), port, target)
    }
}
