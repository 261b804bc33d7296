import Background
import CSys
import HTTP
import JSON
import SIWACore

/// The one request pipeline: every request of every surface enters here, is matched once against the one
/// route table, and goes through the same chain — where to run it, the admin token (routes that are not
/// public), fault rules and timeline (Apple's surface), the handler, then the journal and the log fields.
/// Every decision reads the matched route's `RouteFacts`, declared with its route.
///
/// 404 and 405 answers have one shape per surface: Apple's `{"error":"not_found"}` /
/// `{"error":"method_not_allowed"}`, the control API's `{"error","field","message"}`; both 405s carry
/// `Allow`. A path no route serves takes the surface of its first segment (`RouteTable`).
package final class RequestPipeline: HTTPResponder {
    // A class: the chain's closures capture it by reference instead of copying its fields per request.
    let table: RouteTable
    let provider: AppleIdentityProvider
    /// `--admin-token` (a bearer token, or the dashboard's cookie): required on routes that are not public.
    let access: AdminAccess?
    /// Fault rules and timeline around Apple's endpoints; nil serves them plain.
    let faults: FaultStage?
    /// Where exchanges are journaled; nil keeps no journal.
    let recorder: JournalRecorder?
    let log: @Sendable (String) -> Void
    /// Runs requests that wait on a shared store off the event loop; nil answers them on it.
    let storeWorkers: BackgroundScheduler?
    /// Runs the routes with a background lane (`RouteFacts.lane`) off the event loop; nil (or no thread)
    /// answers them on it, refusing what would have to wait (503).
    let backgroundWaits: BackgroundScheduler?
    /// Without an admin token on loopback: refuses requests to routes that are not public for a foreign
    /// `Host` or `Origin`.
    let loopbackGuard: LoopbackGuard?

    init(
        table: RouteTable, provider: AppleIdentityProvider, access: AdminAccess? = nil, faults: FaultStage? = nil,
        recorder: JournalRecorder? = nil, log: @escaping @Sendable (String) -> Void,
        storeWorkers: BackgroundScheduler? = nil, backgroundWaits: BackgroundScheduler? = nil,
        loopbackGuard: LoopbackGuard? = nil
    ) {
        self.loopbackGuard = loopbackGuard
        self.storeWorkers = storeWorkers
        self.backgroundWaits = backgroundWaits
        self.table = table
        self.provider = provider
        self.access = access
        self.faults = faults
        self.recorder = recorder
        self.log = log
    }

    /// Every route, in declaration order.
    package var routes: [Route] { table.routes }

    /// The lane of the routes that wait for background work (`RouteFacts.Lane.backgroundWork`).
    static let backgroundWaitLane = BackgroundScheduler.Lane("control-waits", limit: 2)
    /// The lane of the views of stored mail (`RouteFacts.Lane.mailView`). The list `/mock/mail` shows
    /// what was read when each message was stored, and its long poll parks itself.
    static let mailViewLane = BackgroundScheduler.Lane("mail-views", limit: 2)

    /// Matches the route, then answers where its facts say: with a shared store on a store worker unless
    /// it is served from memory; in its background lane if it has one; else here, on the loop.
    package func respond(to request: consuming HTTPRequest) -> HTTPResponse {
        let match = table.match(request.method, request.path)
        let facts = match.facts
        if let storeWorkers, !facts.servedFromMemory {
            let pending = DeferredResponse()
            let moved = copy request
            if storeWorkers.schedule({ pending.fulfill(self.respondHere(to: moved, match, offLoop: true)) }) {
                return .deferred(pending)
            }
        }
        if let backgroundWaits, let lane = facts.lane {
            let pending = DeferredResponse()
            let moved = copy request
            let scheduled = backgroundWaits.schedule(
                lane: lane == .mailView ? Self.mailViewLane : Self.backgroundWaitLane
            ) {
                pending.fulfill(self.respondHere(to: moved, match, offLoop: true))
                // A view of a 10 MB message frees tens of MiB; glibc keeps freed heap unless asked.
                if lane == .mailView { _ = csys_malloc_trim() }
            }
            if scheduled { return .deferred(pending) }
        }
        return respondHere(to: request, match)
    }

    /// The whole chain on the calling thread (`offLoop`: a background thread, which may wait).
    func respondHere(to request: consuming HTTPRequest, _ match: RouteTable.Match, offLoop: Bool = false)
        -> HTTPResponse
    {
        var context = RequestContext.make(request, facts: match.facts, routes: table, offLoop: offLoop)
        let answered = answer(&context, match)
        if context.outcome == nil {
            context.outcome = answered.status.isError ? "http_\(answered.status.code)" : "ok"
        }
        recorder?.record(context, status: answered.status)
        let logFields = context.logFields
        // Returned as answered when there is nothing to log (a copy to change it costs ~300 instructions).
        if logFields.isEmpty { return answered }
        var response = answered
        response.logFields = logFields
        return response
    }

    /// The surface's stages around the handler: faults, timeline and the user for Apple's routes; the
    /// client and user a control call named.
    private func answer(_ context: inout RequestContext, _ match: RouteTable.Match) -> HTTPResponse {
        let response: HTTPResponse
        switch context.facts.surface {
        case .apple:
            // The user is looked up only when asked: a fault rule or timeline entry naming a user asks
            // before the handler; the token and revoke handlers learn it from the store's own answer
            // (`RequestContext.learnUser`), so a redemption costs one store round trip; otherwise it is
            // looked up after the handler, for the journal.
            if let faults, !faults.isIdle {
                let form = context.form
                let lookup = UserLookup { [self] in userBeforeHandling(form) }
                response = faults.run(&context, user: lookup, next: { self.dispatch(&$0, match) })
                _ = context.settleUser { _ in lookup.value }
            } else {
                // No fault rule and no pending timeline entry: nothing asks for the user before the handler.
                response = dispatch(&context, match)
                _ = context.settleUser { userBeforeHandling($0) }
            }
        case .control:
            response = dispatch(&context, match)
            learnControlFacts(&context)
        }
        return response
    }

    /// The loopback guard and the admin token unless the route is public, then the handler or the
    /// surface's 404 / 405.
    func dispatch(_ context: inout RequestContext, _ match: RouteTable.Match) -> HTTPResponse {
        let surface = context.facts.surface
        // Public routes (Apple's, health, the CA certificate, the dashboard's page and files) hold nothing to
        // steal and change nothing, so a load balancer's or orchestrator's probe with its own `Host` is answered.
        if !context.facts.isPublic, let refusal = loopbackGuard?.refusal(of: context.request) {
            return context.refuse(refusal)
        }
        if let access, !context.facts.isPublic {
            switch access.verdict(for: context.request) {
            case .granted:
                break
            case .missing:
                return context.refuse(
                    ControlFailure(
                        status: .unauthorized, error: "unauthorized", field: "Authorization",
                        "control calls need Authorization: Bearer <admin token> (or the dashboard's sign-in)"))
            case .crossOrigin(let reason):
                return context.refuse(
                    ControlFailure(status: .forbidden, error: "cross_origin", field: AdminAccess.proofHeader, reason))
            }
        }
        switch match {
        case .found(let route, let captures):
            context.captures = captures
            return route.handler(&context)
        case .methodNotAllowed(let allow, _):
            let list = allow.map(\.rawValue).joined(separator: ", ")
            context.outcome = "method_not_allowed"
            context.reason = "\(context.request.method) not allowed on \(context.request.path); use \(list)"
            guard surface == .control else { return Responses.methodNotAllowed(allow: list) }
            var failure = ControlFailure(
                status: .methodNotAllowed, error: "method_not_allowed", field: "method",
                "\(context.request.method) not allowed; use \(list)")
            failure.allow = list
            return failure.response
        case .notFound:
            context.outcome = "not_found"
            context.reason = "no route for \(context.request.path)"
            guard surface == .control else { return Responses.notFound() }
            return ControlFailure(
                status: .notFound, error: "not_found", field: "path", "no control endpoint \(context.request.path)"
            ).response
        }
    }

    /// The scenario user behind an Apple request: the owner of its code or token, else its `login_hint`.
    func userBeforeHandling(_ form: RequestForm) -> String? {
        guard form.hasFields else { return nil }
        if let token = form.field("code") ?? form.field("refresh_token") ?? form.field("token"),
            let user = try? provider.store.userID(forToken: token)
        {
            return user
        }
        if let hint = form.field("login_hint") { return provider.user(named: hint)?.id }
        return nil
    }

    /// The client and user a control call named, from its query or its (already parsed) JSON body.
    func learnControlFacts(_ context: inout RequestContext) {
        let object = context.parsedObject
        if context.clientID == nil { context.clientID = object?["client_id"]?.stringValue }
        if context.user == nil,
            let name = context.form.field("user") ?? object?["user"]?.stringValue
        {
            context.user = provider.user(named: name)?.id
        }
    }
}

/// The scenario user behind one Apple request (`RequestPipeline.userBeforeHandling`), looked up at most
/// once and only when something asks. Lives on the thread answering the request.
final class UserLookup {
    private let resolve: () -> String?
    private var resolved: String??

    init(_ resolve: @escaping () -> String?) {
        self.resolve = resolve
    }

    var value: String? {
        if let resolved { return resolved }
        let value = resolve()
        resolved = .some(value)
        return value
    }
}
