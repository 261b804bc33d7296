import HTTP

/// Which of the mock's surfaces a route belongs to. The surface decides what runs around the handler
/// (fault rules and the timeline on Apple's endpoints, the admin token on the control API), the shape of
/// 404 and 405 answers (Apple's JSON, or the control API's `{"error","field","message"}`) and whether the
/// journal counts the call as the backend's traffic or the mock's own.
package enum RouteSurface: Sendable, Equatable {
    /// `appleid.apple.com`'s paths, and Sign in with Apple JS at Apple's CDN path.
    case apple
    /// The mock's own API under `/mock/` (with the dashboard and the mailbox), and the
    /// Mailpit-compatible mailbox API under `/api/v1/` (docs/relay-mail.md).
    case control
}

/// What the pipeline needs to know about a route before its handler runs, declared with the route's
/// group (`AppleEndpoints.facts`, `ControlEndpoints.facts`, …) and read from the matched route.
package struct RouteFacts: Sendable, Equatable {
    /// Background lanes a route's requests run in when the server has background threads.
    package enum Lane: Sendable, Equatable {
        /// May wait for background work (a signing key the key supply has not made yet: one RSA
        /// generation, 70–470 ms): answered when done (docs/control-api.md), never "retry".
        case backgroundWork
        /// Parses a stored message of up to the SMTP size limit, so the loop keeps answering others
        /// (a 9.6 MB message once held `/auth/keys` for 4.7 s; docs/limits.md).
        case mailView
    }

    package var surface: RouteSurface
    /// Answers without the admin token and the loopback guard (Apple's endpoints, health checks, the CA
    /// certificate, the dashboard's page and files): they hold nothing to steal and change nothing.
    package var isPublic: Bool
    /// Answered from memory even with a shared store: the event loop serves it at once, and fault rules
    /// on it count in this replica (docs/scale-out.md, "Not shared").
    package var servedFromMemory = false
    /// The background lane its requests run in; nil: the event loop (or a store worker).
    package var lane: Lane?
    /// Whether the journal records it; the dashboard's page and files are left out (it reloads them, and
    /// watching the journal must not evict what it shows; docs/browser.md).
    package var journaled = true

    /// Apple's endpoints: open to anyone, behind the scenario's fault rules and timeline.
    package static let apple = RouteFacts(surface: .apple, isPublic: true)
    /// The control API: the admin token and the loopback guard apply.
    package static let control = RouteFacts(surface: .control, isPublic: false)

    /// These facts, public.
    package var publicly: RouteFacts { with { $0.isPublic = true } }
    /// These facts, served from memory.
    package var fromMemory: RouteFacts { with { $0.servedFromMemory = true } }
    /// These facts, left out of the journal.
    package var unjournaled: RouteFacts { with { $0.journaled = false } }
    /// These facts, running in `lane`.
    package func running(in lane: Lane) -> RouteFacts { with { $0.lane = lane } }

    private func with(_ change: (inout RouteFacts) -> Void) -> RouteFacts {
        var facts = self
        change(&facts)
        return facts
    }
}

/// One entry of the route table: a method, a path pattern, its facts and what answers it.
package struct Route: Sendable {
    /// Handles one request; learns facts for the journal and log through the context.
    package typealias Handler = @Sendable (inout RequestContext) -> HTTPResponse

    package let method: HTTPMethod
    package let path: PathPattern
    package let facts: RouteFacts
    let handler: Handler

    package init(_ method: HTTPMethod, _ path: String, _ facts: RouteFacts, handler: @escaping Handler) {
        self.method = method
        self.path = PathPattern(path)
        self.facts = facts
        self.handler = handler
    }
}

extension Route {
    /// A control-API route: a thrown `ControlFailure` becomes its `{"error","field","message"}` answer,
    /// with the message kept as the refusal's reason.
    static func control(
        _ method: HTTPMethod, _ path: String, _ facts: RouteFacts = .control,
        _ handler: @escaping @Sendable (inout RequestContext) throws(ControlFailure) -> HTTPResponse
    ) -> Route {
        Route(method, path, facts) { context in
            do throws(ControlFailure) {
                return try handler(&context)
            } catch {
                return context.refuse(error)
            }
        }
    }
}
