import HTTP
import JSON
import SIWACore
import ScenarioFormat
import ScenarioModel

/// `/mock/faults`: list rules with counters (GET), add a rule (POST, the scenario file's fault syntax
/// as JSON), switch one on or off (`PATCH /mock/faults/{id} {"enabled": bool}`), remove one
/// (`DELETE /mock/faults/{id}`) or all (`DELETE /mock/faults`), and reset counters
/// (`POST /mock/faults/reset`, `POST /mock/faults/{id}/reset`).
package struct FaultsEndpoints: Sendable {
    package let faults: FaultEngine
    package let provider: AppleIdentityProvider

    package init(faults: FaultEngine, provider: AppleIdentityProvider) {
        self.faults = faults
        self.provider = provider
    }

    /// The routes, declared once (`reset` is a literal segment, so it is never taken for a rule id).
    package var routes: [Route] {
        [
            Route(.get, "/mock/faults", .control) { _ in list() },
            Route(.post, "/mock/faults", .control) { add(&$0) },
            Route(.delete, "/mock/faults", .control) { _ in
                for status in faults.statuses { faults.remove(id: status.rule.id) }
                return HTTPResponse(status: .noContent)
            },
            .control(.post, "/mock/faults/reset") { _ throws(ControlFailure) in
                try resetCounters(id: nil)
                return list()
            },
            Route(.get, "/mock/faults/{id}", .control) { context in
                let id = context.capture("id")
                guard let status = faults.statuses.first(where: { $0.rule.id == id }) else {
                    return notFound(id, &context)
                }
                return Responses.json(Self.json(status))
            },
            .control(.patch, "/mock/faults/{id}") { context throws(ControlFailure) in try patch(&context) },
            Route(.delete, "/mock/faults/{id}", .control) { context in
                let id = context.capture("id")
                guard faults.remove(id: id) else { return notFound(id, &context) }
                return HTTPResponse(status: .noContent)
            },
            Route(.post, "/mock/faults/{id}/reset", .control) { context in
                let id = context.capture("id")
                guard faults.statuses.contains(where: { $0.rule.id == id }) else { return notFound(id, &context) }
                do throws(ControlFailure) {
                    try resetCounters(id: id)
                } catch {
                    return context.refuse(error)
                }
                return list()
            },
        ]
    }

    func list() -> HTTPResponse {
        Responses.json(.object(JSONObject([("faults", .array(faults.statuses.map(Self.json)))])))
    }

    func add(_ context: inout RequestContext) -> HTTPResponse {
        let text = String(decoding: context.request.body, as: UTF8.self)
        let rule: FaultRule
        do {
            rule = try Self.rule(from: text, file: "body", provider: provider, faults: faults)
        } catch {
            context.outcome = "invalid_request"
            context.reason = error.diagnostics.map(\.description).joined(separator: "; ")
            return Responses.json(
                .object(
                    JSONObject([
                        ("error", .string("invalid_request")),
                        ("problems", .array(error.diagnostics.map { .string($0.description) })),
                    ])), status: .badRequest)
        }
        do {
            try faults.add(rule)
        } catch {
            context.outcome = error.kind.rawValue
            context.reason = error.description
            return Responses.json(
                .object(
                    JSONObject([
                        ("error", .string(error.kind.rawValue)), ("error_description", .string(error.description)),
                    ])),
                status: .conflict)
        }
        return Responses.json(Self.json(FaultStatus(rule: rule, matched: 0, fired: 0)), status: .created)
    }

    /// One rule from text (YAML or JSON, as `POST /mock/faults` and `AppleIDMock.addFault` take it),
    /// checked against the active scenario's users and clients; unnamed rules get `fault-N`.
    package static func rule(
        from text: String, file: String, provider: AppleIdentityProvider, faults: FaultEngine
    ) throws(ScenarioDiagnostics) -> FaultRule {
        var loader = ScenarioLoader()
        loader.ruleTargets = AppleEndpoints.ruleTargets
        return try loader.loadFault(
            text, file: file, scenario: provider.scenario, defaultID: "fault-\(faults.statuses.count + 1)")
    }

    /// `PATCH /mock/faults/{id} {"enabled": true|false}`: the switch the timeline's `start_fault` and
    /// `stop_fault` flip; counters are kept.
    func patch(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let id = context.capture("id")
        let body = try context.json(required: true)
        try body.allowOnly(["enabled"])
        guard let enabled = try body.bool("enabled") else { throw .invalid("enabled", "is required (true or false)") }
        guard faults.setEnabled(id: id, enabled), let status = faults.statuses.first(where: { $0.rule.id == id }) else {
            throw ControlFailure(status: .notFound, error: "not_found", field: "id", "unknown fault '\(id)'")
        }
        return Responses.json(Self.json(status))
    }

    func notFound(_ id: String, _ context: inout RequestContext) -> HTTPResponse {
        context.outcome = "not_found"
        context.reason = "unknown fault '\(id)'"
        return Responses.json(
            .object(
                JSONObject([("error", .string("not_found")), ("error_description", .string("unknown fault '\(id)'"))])),
            status: .notFound)
    }

    /// `{"id","match","enabled","after","times","probability","action","matched","fired"}`.
    static func json(_ status: FaultStatus) -> JSONValue {
        let rule = status.rule
        var object = JSONObject()
        object["id"] = .string(rule.id)
        object["match"] = .string(rule.matcher.summary)
        object["enabled"] = .bool(rule.enabled)
        object["after"] = .int(Int64(rule.after))
        object["times"] = rule.times.map { .int(Int64($0)) } ?? .null
        object["probability"] = .double(rule.probability)
        var action: [String] = []
        if let response = rule.action.response {
            action.append("status \(response.status)" + (response.error.map { " \($0)" } ?? ""))
        }
        if let delay = rule.action.delay { action.append("delay \(delay.minMilliseconds)-\(delay.maxMilliseconds)ms") }
        if let connection = rule.action.connection { action.append(connection.name) }
        if let tamper = rule.action.tamper { action.append("tamper \(tamper.name)") }
        object["action"] = .string(action.joined(separator: ", "))
        object["matched"] = .int(Int64(status.matched))
        object["fired"] = .int(Int64(status.fired))
        return .object(object)
    }

    /// Counters back to zero, fleet-wide with a shared store (503 `unavailable` when it cannot be reached).
    func resetCounters(id: String?) throws(ControlFailure) {
        do throws(StoreUnavailable) {
            try faults.resetSharedCounters(id: id)
        } catch {
            throw ControlFailure(ProviderChangeError(.unavailable, field: "store", error.description))
        }
    }
}
