/// A response status code with its reason phrase (RFC 9110 §15). Integer literals convert, so tests
/// read `response.status == 200`; code uses the named constants.
package struct HTTPStatus: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    package var code: Int

    package init(code: Int) { self.code = code }
    package init(integerLiteral value: Int) { self.code = value }

    package static let `continue`: HTTPStatus = 100
    package static let ok: HTTPStatus = 200
    package static let created: HTTPStatus = 201
    package static let accepted: HTTPStatus = 202
    package static let noContent: HTTPStatus = 204
    package static let found: HTTPStatus = 302
    package static let notModified: HTTPStatus = 304
    package static let badRequest: HTTPStatus = 400
    package static let unauthorized: HTTPStatus = 401
    package static let forbidden: HTTPStatus = 403
    package static let notFound: HTTPStatus = 404
    package static let methodNotAllowed: HTTPStatus = 405
    package static let requestTimeout: HTTPStatus = 408
    package static let conflict: HTTPStatus = 409
    package static let lengthRequired: HTTPStatus = 411
    package static let contentTooLarge: HTTPStatus = 413
    package static let expectationFailed: HTTPStatus = 417
    package static let tooManyRequests: HTTPStatus = 429
    package static let requestHeaderFieldsTooLarge: HTTPStatus = 431
    package static let internalServerError: HTTPStatus = 500
    package static let notImplemented: HTTPStatus = 501
    package static let serviceUnavailable: HTTPStatus = 503
    package static let httpVersionNotSupported: HTTPStatus = 505

    package static func < (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code < rhs.code }

    package var description: String { String(code) }

    /// 1xx: informational, never a final answer.
    package var isInformational: Bool { (100..<200).contains(code) }
    /// 4xx and 5xx.
    package var isError: Bool { code >= 400 }

    /// The reason phrase for the status line.
    package var reasonPhrase: String {
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
    package var forbidsBody: Bool { isInformational || code == 204 || code == 304 }
}
