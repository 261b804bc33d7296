import HTTP
import JSON
import SIWACore
import ScenarioModel

/// The scenario's fault rules and timeline around Apple's endpoints: before a request, due time
/// triggers run; a firing fault replaces or degrades the answer; after it, request triggers count
/// (`TimelineStage`).
final class FaultStage: Sendable {
    let provider: AppleIdentityProvider
    let faults: FaultEngine
    let timeline: TimelineStage
    let log: @Sendable (String) -> Void

    init(
        provider: AppleIdentityProvider, faults: FaultEngine, timeline: TimelineStage,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.provider = provider
        self.faults = faults
        self.timeline = timeline
        self.log = log
    }

    /// No fault rule and every timeline entry fired (or none): `run` would only call `next`. Two atomic
    /// loads, so a scenario without faults or timeline pays nothing for them (`FaultEngine.isIdle`,
    /// `TimelineEngine.isIdle`).
    var isIdle: Bool { faults.isIdle && timeline.engine.isIdle }

    /// Runs `next` (the route's handler) unless a fault answers instead.
    func run(
        _ context: inout RequestContext, user lookup: UserLookup, next: (inout RequestContext) -> HTTPResponse
    ) -> HTTPResponse {
        let now = provider.clock.nowMilliseconds
        // Answered on the event loop, which never waits on the store (docs/scale-out.md, "Not shared").
        let fromMemory = context.facts.servedFromMemory
        timeline.beforeRequest(nowMilliseconds: now, mayWait: !fromMemory)

        let facts = RequestFacts(
            method: context.request.method.rawValue, path: context.request.path, fields: context.form.all)
        var response: HTTPResponse
        let decided: FaultDecision?
        if fromMemory {
            // Answered on the event loop, which never waits on the store: counted in this replica
            // (docs/scale-out.md, "Not shared").
            decided = faults.decide(facts, nowMilliseconds: now, resolveUser: { lookup.value })
        } else {
            do throws(StoreUnavailable) {
                decided = try faults.decideShared(facts, nowMilliseconds: now, resolveUser: { lookup.value })
            } catch {
                return context.refuse(.unavailable(error), log: log)
            }
        }
        if let decision = decided {
            log("fault \(decision.ruleID) fired on \(context.request.method) \(context.request.path)")
            context.fault = decision.ruleID
            context.tamper = decision.action.tamper
            response = apply(decision, to: &context, next: next)
        } else {
            response = next(&context)
        }
        timeline.afterRequest(
            facts, user: { context.settleUser { _ in lookup.value } }, mayWait: !fromMemory)
        return response
    }

    /// The fault's answer: its own response (or the real one), then its delivery fault and delay.
    private func apply(
        _ decision: FaultDecision, to context: inout RequestContext, next: (inout RequestContext) -> HTTPResponse
    ) -> HTTPResponse {
        let action = decision.action
        var response: HTTPResponse
        if let fault = action.response {
            response = Self.render(fault)
            context.outcome = fault.error ?? (response.status.isError ? "http_\(response.status.code)" : "ok")
            context.reason = "fault rule \(decision.ruleID) answered \(fault.status)"
        } else if action.connection == .reset || action.connection == .closeWithoutResponse {
            response = HTTPResponse(status: .ok)
            context.outcome = "fault"
            context.reason = "fault rule \(decision.ruleID) dropped the connection"
        } else {
            response = next(&context)
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
            response.headers.set("Content-Type", Responses.jsonContentType)
        case nil: break
        }
        if let delay = decision.delayMilliseconds, delay > 0, response.delivery == .normal {
            response.delivery = .delayed(milliseconds: Int(delay))
        }
        return response
    }

    /// A fault response: Apple's error JSON, a raw body, or an empty body, plus the rule's headers.
    /// It stands for Apple's answer, so it says `Server: Apple` as every answer of Apple's routes does
    /// (docs/fidelity.md); a rule's own `Server` header replaces it.
    static func render(_ fault: FaultResponse) -> HTTPResponse {
        let status = HTTPStatus(code: fault.status)
        var response: HTTPResponse
        if let error = fault.error {
            var object = JSONObject([("error", .string(error))])
            if let description = fault.errorDescription { object["error_description"] = .string(description) }
            response = Responses.json(.object(object), status: status)
        } else if let body = fault.body {
            response = HTTPResponse(status: status, body: Array(body.utf8))
            response.headers.add(
                "Content-Type",
                body.hasPrefix("{") || body.hasPrefix("[") ? Responses.jsonContentType : "text/plain;charset=UTF-8")
        } else {
            response = HTTPResponse(status: status)
        }
        response.headers.add("Server", "Apple")
        for (name, value) in fault.headers { response.headers.set(name, value) }
        return response
    }
}
