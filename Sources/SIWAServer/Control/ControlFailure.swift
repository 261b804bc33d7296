import HTTP
import JSON
import SIWACore

/// A refused control call: status plus `{"error","field"?,"message"}`. Nothing was applied.
struct ControlFailure: Error, Sendable {
    var status: HTTPStatus
    var error: String
    var field: String?
    var message: String
    /// The `Allow` header of a 405.
    var allow: String?
    /// More members of the error object (`code` of an `ASAuthorizationError`, …).
    var details: [(String, JSONValue)] = []

    init(status: HTTPStatus, error: String, field: String? = nil, _ message: String) {
        self.status = status
        self.error = error
        self.field = field
        self.message = message
    }

    static func invalid(_ field: String, _ message: String) -> ControlFailure {
        ControlFailure(status: .badRequest, error: "invalid_request", field: field, message)
    }

    /// notFound → 404, invalid → 400, conflict → 409.
    init(_ error: ProviderChangeError) {
        switch error.kind {
        case .notFound: self.init(status: .notFound, error: "not_found", field: error.field, error.message)
        case .invalid: self.init(status: .badRequest, error: "invalid_request", field: error.field, error.message)
        case .conflict: self.init(status: .conflict, error: "conflict", field: error.field, error.message)
        case .unavailable:
            self.init(status: .serviceUnavailable, error: "unavailable", field: error.field, error.message)
        }
    }

    var response: HTTPResponse {
        var object = JSONObject([("error", .string(error))])
        if let field { object["field"] = .string(field) }
        object["message"] = .string(message)
        for (name, value) in details { object[name] = value }
        var response = Responses.json(.object(object), status: status)
        if let allow { response.headers.add("Allow", allow) }
        // A 503 is "not yet" (e.g. no signing key generated yet): say when to try again.
        if status == .serviceUnavailable { response.headers.add("Retry-After", "1") }
        return response
    }
}
