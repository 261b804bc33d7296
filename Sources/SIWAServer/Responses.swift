import HTTP
import JSON
import SIWACore

/// Response shapes shared by the endpoints.
enum Responses {
    static let jsonContentType = "application/json;charset=UTF-8"
    static let htmlContentType = "text/html;charset=UTF-8"

    /// 200 JSON with Apple's token-endpoint cache headers.
    static func json(_ body: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: noStore(contentType: jsonContentType), body: body)
    }

    static func json(_ value: JSONValue, status: HTTPStatus = .ok) -> HTTPResponse {
        json(value.serialized(), status: status)
    }

    /// 400 `{"error":"…","error_description":"…"}`, description omitted when nil (ErrorResponse, TN3107).
    static func error(_ error: AppleError) -> HTTPResponse {
        json(errorBody(error), status: .badRequest)
    }

    static func errorBody(_ error: AppleError) -> JSONValue {
        var object = JSONObject([("error", .string(error.code.rawValue))])
        if let message = error.message { object["error_description"] = .string(message) }
        return .object(object)
    }

    /// 200 with an empty body (revoke success).
    static func emptyOK() -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Cache-Control", "no-store")
        headers.add("Pragma", "no-cache")
        return HTTPResponse(status: .ok, headers: headers)
    }

    /// An HTML page, never cached, with its Content-Security-Policy and the headers that keep it from
    /// being framed (`X-Frame-Options: DENY` for browsers without `frame-ancestors`) or sniffed.
    static func html(_ text: String, policy: ContentSecurityPolicy, status: HTTPStatus = .ok) -> HTTPResponse {
        var headers = noStore(contentType: htmlContentType)
        headers.add("Content-Security-Policy", policy.header)
        headers.add("X-Frame-Options", "DENY")
        headers.add("X-Content-Type-Options", "nosniff")
        return HTTPResponse(status: status, headers: headers, body: Array(text.utf8))
    }

    static func redirect(to location: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Location", location)
        headers.add("Cache-Control", "no-store")
        headers.add("Pragma", "no-cache")
        return HTTPResponse(status: .found, headers: headers)
    }

    static func notFound() -> HTTPResponse {
        json(.object(JSONObject([("error", .string("not_found"))])), status: .notFound)
    }

    static func methodNotAllowed(allow: String) -> HTTPResponse {
        var response = json(.object(JSONObject([("error", .string("method_not_allowed"))])), status: .methodNotAllowed)
        response.headers.add("Allow", allow)
        return response
    }

    /// 503 with an empty body and `Retry-After: 1`: the shared state store is unreachable
    /// (docs/scale-out.md, "Failure modes"; what a backend sees when Apple's service is down).
    static func storeUnavailable() -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Retry-After", "1")
        headers.add("Cache-Control", "no-store")
        return HTTPResponse(status: .serviceUnavailable, headers: headers)
    }

    static func internalError() -> HTTPResponse {
        json(.object(JSONObject([("error", .string("server_error"))])), status: .internalServerError)
    }

    static func noStore(contentType: String) -> HTTPHeaders {
        contentType == jsonContentType ? jsonNoStore : makeNoStore(contentType: contentType)
    }

    /// Apple's JSON headers, built and serialized once (`HTTPHeaders.prepared()`): most answers use them,
    /// and a copy costs one retain.
    private static let jsonNoStore = makeNoStore(contentType: jsonContentType).prepared()
    /// The same with `Server: Apple`, which every answer of Apple's routes carries.
    private static let appleJSONNoStore: HTTPHeaders = {
        var headers = makeNoStore(contentType: jsonContentType)
        headers.add("Server", "Apple")
        return headers.prepared()
    }()

    /// Adds `Server: Apple`: for Apple's unchanged JSON headers, by taking their prepared copy with it.
    static func stampApple(_ headers: inout HTTPHeaders) {
        if headers.isUnchanged(jsonNoStore) {
            headers = appleJSONNoStore
        } else {
            headers.add("Server", "Apple")
        }
    }

    private static func makeNoStore(contentType: String) -> HTTPHeaders {
        // Room for the `Server` field Apple's routes add and the fields pages add.
        var headers = HTTPHeaders(reservingCapacity: 8)
        headers.add("Content-Type", contentType)
        headers.add("Cache-Control", "no-store")
        headers.add("Pragma", "no-cache")
        return headers
    }
}
