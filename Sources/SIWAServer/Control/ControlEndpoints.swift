import HTTPServer
import JSON
import SIWACore

/// The mock's own API under `/mock/` (JSON in and out). Apple's endpoints stay in `AppleEndpoints`.
///
/// Today: `GET /mock/health` for container health checks and `siwa-mock health`.
public struct ControlEndpoints: HTTPResponder {
    public let provider: AppleIdentityProvider

    public init(provider: AppleIdentityProvider) {
        self.provider = provider
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        switch request.path {
        case "/mock/health":
            guard request.method == "GET" || request.method == "HEAD" else {
                return Responses.methodNotAllowed(allow: "GET, HEAD")
            }
            return Responses.json(.object(JSONObject([("status", .string("ok"))])))
        default:
            return Responses.notFound()
        }
    }
}
