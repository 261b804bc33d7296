import HTTPServer
import JSON
import SIWACore

/// Wraps Apple's endpoints with the scenario's fault rules and timeline: before a request, due time
/// triggers run; a firing fault replaces or degrades the answer; after it, request triggers count.
public struct FaultInjector: HTTPResponder {
    public let inner: AppleEndpoints
    public let faults: FaultEngine
    public let timeline: TimelineEngine
    let log: @Sendable (String) -> Void
    /// Delivers notifications from timeline `notify` actions.
    let notify: @Sendable ([PreparedNotification]) -> Void

    public init(
        inner: AppleEndpoints, faults: FaultEngine, timeline: TimelineEngine, log: @escaping @Sendable (String) -> Void,
        notify: @escaping @Sendable ([PreparedNotification]) -> Void = { _ in }
    ) {
        self.inner = inner
        self.faults = faults
        self.timeline = timeline
        self.log = log
        self.notify = notify
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let provider = inner.provider
        let now = provider.clock.nowMilliseconds
        let due = timeline.dueActions(nowMilliseconds: now)
        if !due.isEmpty { provider.apply(due, faults: faults, send: notify).forEach(log) }

        let facts = Self.facts(of: request)
        let resolveUser = { Self.resolveUser(facts, provider: provider) }
        // The user is resolved before the request runs: redeeming a code removes it from the store.
        let userBefore: String?? = timeline.hasRequestTriggers ? .some(resolveUser()) : .none
        var response: HTTPResponse
        if let decision = faults.decide(facts, nowMilliseconds: now, resolveUser: resolveUser) {
            log("fault \(decision.ruleID) fired on \(request.method) \(request.path)")
            response = Self.apply(decision, to: request, inner: inner)
        } else {
            response = inner.respond(to: request)
        }
        if let userBefore {
            let fired = timeline.recordRequest(facts, resolveUser: { userBefore })
            if !fired.isEmpty { provider.apply(fired, faults: faults, send: notify).forEach(log) }
        }
        return response
    }

    /// The fault's answer: its own response (or the real one), then its delivery fault and delay.
    static func apply(_ decision: FaultDecision, to request: HTTPRequest, inner: AppleEndpoints) -> HTTPResponse {
        let action = decision.action
        var response: HTTPResponse
        if let fault = action.response {
            response = render(fault)
        } else if action.connection == .reset || action.connection == .closeWithoutResponse {
            response = HTTPResponse(status: 200)
        } else {
            response = inner.respond(to: request)
        }
        switch action.connection {
        case .reset?: response.delivery = .reset
        case .closeWithoutResponse?: response.delivery = .closeWithoutResponse
        case .truncatedBody?: response.delivery = .truncatedBody
        case .slowBody(let chunk, let interval)?:
            response.delivery = .slowBody(chunkSize: chunk, intervalMilliseconds: interval)
        case .malformedJSON?:
            let body =
                response.body.isEmpty
                ? Array(#"{"error":"#.utf8) : Array(response.body.prefix(max(1, response.body.count / 2)))
            response.body = body
            response.headers.set("Content-Type", "application/json;charset=UTF-8")
        case nil: break
        }
        if let delay = decision.delayMilliseconds, delay > 0, response.delivery == .normal {
            response.delivery = .delayed(milliseconds: Int(delay))
        }
        return response
    }

    /// A fault response: Apple's error JSON, a raw body, or an empty body, plus the rule's headers.
    static func render(_ fault: FaultResponse) -> HTTPResponse {
        var response: HTTPResponse
        if let error = fault.error {
            var object = JSONObject([("error", .string(error))])
            if let description = fault.errorDescription { object["error_description"] = .string(description) }
            response = Responses.json(.object(object), status: fault.status)
        } else if let body = fault.body {
            response = HTTPResponse(status: fault.status, body: Array(body.utf8))
            response.headers.add(
                "Content-Type",
                body.hasPrefix("{") || body.hasPrefix("[") ? Responses.jsonContentType : "text/plain;charset=UTF-8")
        } else {
            response = HTTPResponse(status: fault.status)
        }
        for (name, value) in fault.headers { response.headers.set(name, value) }
        return response
    }

    /// Method, path and the query and form fields (form only for urlencoded bodies).
    static func facts(of request: HTTPRequest) -> RequestFacts {
        var fields: [(name: String, value: String)] = []
        if let query = request.query, let decoded = try? FormBody.decode(Array(query.utf8)) { fields += decoded }
        if FormBody.isForm(request.headers["Content-Type"]), let decoded = try? FormBody.decode(request.body) {
            fields += decoded
        }
        return RequestFacts(method: request.method, path: request.path, fields: fields)
    }

    /// The scenario user behind a request: from its code or token, else its `login_hint`.
    static func resolveUser(_ facts: RequestFacts, provider: AppleIdentityProvider) -> String? {
        if let token = facts.userToken, let user = provider.store.userID(forToken: token) { return user }
        if let hint = facts.field("login_hint") { return provider.user(named: hint)?.id }
        return nil
    }
}
