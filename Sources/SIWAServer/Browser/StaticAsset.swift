import HTTP
import JOSE

/// A file served from memory with validators: a strong `ETag` from the bytes' SHA-256, `Cache-Control`,
/// and `304 Not Modified` for a matching `If-None-Match` (RFC 9110 §8.8.3, §13.1.2; RFC 9111 §5.2).
struct StaticAsset: Sendable {
    let body: [UInt8]
    let contentType: String
    let etag: String
    let cacheControl: String

    init(_ text: String, contentType: String, cacheControl: String = "public, max-age=3600") {
        body = Array(text.utf8)
        self.contentType = contentType
        self.cacheControl = cacheControl
        etag = "\"" + Base16.lowercase(SHA256.hash(body).prefix(12)) + "\""
    }

    /// 200 with the body, or 304 without one when `If-None-Match` names this ETag (or `*`); weak
    /// comparison, as RFC 9110 §13.1.2 asks for `If-None-Match`.
    func response(to request: HTTPRequest) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("ETag", etag)
        headers.add("Cache-Control", cacheControl)
        headers.add("X-Content-Type-Options", "nosniff")
        if let condition = request.headers.ifNoneMatch, matches(condition) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add("Content-Type", contentType)
        headers.add("Access-Control-Allow-Origin", "*")
        return HTTPResponse(status: .ok, headers: headers, body: body)
    }

    func matches(_ condition: String) -> Bool {
        condition.split(separator: ",").contains { candidate in
            let tag = String(candidate.filter { $0 != " " && $0 != "\t" })  // an entity-tag holds no whitespace
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}
