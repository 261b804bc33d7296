import HTTPServer
import JOSE

/// A file served from memory: its bytes, type and headers built once, with an `ETag` (SHA-256 of the
/// bytes) so a browser revalidates with `If-None-Match` and gets a bodiless 304 (RFC 9110 §13.1.2).
struct StaticAsset: Sendable {
    let body: [UInt8]
    let etag: String
    let headers: HTTPHeaders

    /// - Parameters:
    ///   - cacheControl: `no-cache` (revalidate every time: a page whose answer depends on the session) or
    ///     a `max-age` for files that do not change while the server runs.
    ///   - extraHeaders: e.g. the page's Content-Security-Policy.
    init(
        _ text: String, contentType: String, cacheControl: String = "no-cache",
        extraHeaders: [(String, String)] = []
    ) {
        body = Array(text.utf8)
        etag = "\"" + Base16.lowercase(SHA256.hash(body).prefix(16)) + "\""
        var headers = HTTPHeaders([
            ("Content-Type", contentType), ("Cache-Control", cacheControl), ("ETag", etag),
            ("X-Content-Type-Options", "nosniff"),
        ])
        for (name, value) in extraHeaders { headers.add(name, value) }
        self.headers = headers
    }

    /// 200 with the bytes, or 304 when the request's `If-None-Match` lists this ETag (or `*`).
    func response(to request: HTTPRequest) -> HTTPResponse {
        if let condition = request.headers["If-None-Match"], matches(condition) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        return HTTPResponse(status: .ok, headers: headers, body: request.method == .head ? [] : body)
    }

    /// The bytes with another status (a form shown again after a refusal), never a 304.
    func response(status: HTTPStatus) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: body)
    }

    /// `If-None-Match`: `*` or a comma-separated list of entity tags, weak ones compared weakly.
    private func matches(_ condition: String) -> Bool {
        condition.split(separator: ",").contains { item in
            var tag = item.drop(while: { $0 == " " })
            while tag.last == " " { tag = tag.dropLast() }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == "*" || tag == etag
        }
    }
}
