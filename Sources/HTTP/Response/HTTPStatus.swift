/// A response status code with its reason phrase (RFC 9110 §15). Integer literals convert, so tests
/// read `response.status == 200`; code uses the named constants.
public struct HTTPStatus: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public var code: Int

    public init(code: Int) { self.code = code }
    public init(integerLiteral value: Int) { self.code = value }

    public static let `continue`: HTTPStatus = 100
    public static let ok: HTTPStatus = 200
    public static let created: HTTPStatus = 201
    public static let accepted: HTTPStatus = 202
    public static let noContent: HTTPStatus = 204
    public static let found: HTTPStatus = 302
    public static let notModified: HTTPStatus = 304
    public static let badRequest: HTTPStatus = 400
    public static let unauthorized: HTTPStatus = 401
    public static let forbidden: HTTPStatus = 403
    public static let notFound: HTTPStatus = 404
    public static let methodNotAllowed: HTTPStatus = 405
    public static let requestTimeout: HTTPStatus = 408
    public static let conflict: HTTPStatus = 409
    public static let lengthRequired: HTTPStatus = 411
    public static let contentTooLarge: HTTPStatus = 413
    public static let expectationFailed: HTTPStatus = 417
    public static let tooManyRequests: HTTPStatus = 429
    public static let requestHeaderFieldsTooLarge: HTTPStatus = 431
    public static let internalServerError: HTTPStatus = 500
    public static let notImplemented: HTTPStatus = 501
    public static let serviceUnavailable: HTTPStatus = 503
    public static let httpVersionNotSupported: HTTPStatus = 505

    public static func < (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code < rhs.code }

    public var description: String { String(code) }

    /// 1xx: informational, never a final answer.
    public var isInformational: Bool { (100..<200).contains(code) }
    /// 4xx and 5xx.
    public var isError: Bool { code >= 400 }

    /// The reason phrase for the status line.
    public var reasonPhrase: String {
        switch code {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Unknown"
        }
    }

    /// Statuses whose responses never carry content (RFC 9110 §6.4.1).
    public var forbidsBody: Bool { isInformational || code == 204 || code == 304 }
}
