import HTTP

/// Which of the mock's surfaces a path belongs to. The surface decides what runs around the handler
/// (fault rules and the timeline on Apple's endpoints, the admin token on the control API) and the
/// shape of 404 and 405 answers (Apple's JSON, or the control API's `{"error","field","message"}`).
package enum RouteSurface: Sendable, Equatable {
    /// `appleid.apple.com`'s paths: everything outside `/mock/` and `/api/v1/`.
    case apple
    /// The mock's own API under `/mock/`, and the Mailpit-compatible mailbox API under `/api/v1/`
    /// (docs/relay-mail.md).
    case control

    static func of(path: String) -> RouteSurface {
        path.hasPrefix("/mock/") || path.hasPrefix("/api/v1/") ? .control : .apple
    }
}

/// One entry of the route table: a method, a path pattern and what answers it.
package struct Route: Sendable {
    /// Handles one request; learns facts for the journal and log through the context.
    package typealias Handler = @Sendable (inout RequestContext) -> HTTPResponse

    package let method: HTTPMethod
    package let path: PathPattern
    /// Control routes that answer without the admin token (health checks, the CA certificate).
    package let isPublic: Bool
    let handler: Handler

    package init(_ method: HTTPMethod, _ path: String, isPublic: Bool = false, handler: @escaping Handler) {
        self.method = method
        self.path = PathPattern(path)
        self.isPublic = isPublic
        self.handler = handler
    }

    package var surface: RouteSurface { RouteSurface.of(path: path.description) }
}

extension Route {
    /// A control-API route: a thrown `ControlFailure` becomes its `{"error","field","message"}` answer,
    /// with the message kept as the refusal's reason.
    static func control(
        _ method: HTTPMethod, _ path: String, isPublic: Bool = false,
        _ handler: @escaping @Sendable (inout RequestContext) throws(ControlFailure) -> HTTPResponse
    ) -> Route {
        Route(method, path, isPublic: isPublic) { context in
            do throws(ControlFailure) {
                return try handler(&context)
            } catch {
                return context.refuse(error)
            }
        }
    }
}
