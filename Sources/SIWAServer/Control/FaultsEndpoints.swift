import HTTPServer
import JSON
import SIWACore

/// `/mock/faults`: list rules with counters (GET), add a rule (POST, the scenario file's fault syntax
/// as JSON), remove one (`DELETE /mock/faults/{id}`) or all (`DELETE /mock/faults`), and reset
/// counters (`POST /mock/faults/reset`, `POST /mock/faults/{id}/reset`).
public struct FaultsEndpoints: HTTPResponder {
    public let faults: FaultEngine
    public let provider: AppleIdentityProvider

    public init(faults: FaultEngine, provider: AppleIdentityProvider) {
        self.faults = faults
        self.provider = provider
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let rest = request.path.dropFirst("/mock/faults".count)
        let parts = rest.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        switch (request.method, parts.count) {
        case ("GET", 0): return list()
        case ("POST", 0): return add(request)
        case ("DELETE", 0):
            for status in faults.statuses { faults.remove(id: status.rule.id) }
            return HTTPResponse(status: 204)
        case ("POST", 1) where parts[0] == "reset":
            faults.resetCounters()
            return list()
        case ("DELETE", 1) where parts[0] != "reset":
            guard faults.remove(id: parts[0]) else { return notFound(parts[0]) }
            return HTTPResponse(status: 204)
        case ("GET", 1) where parts[0] != "reset":
            guard let status = faults.statuses.first(where: { $0.rule.id == parts[0] }) else {
                return notFound(parts[0])
            }
            return Responses.json(Self.json(status))
        case ("POST", 2) where parts[1] == "reset":
            guard faults.statuses.contains(where: { $0.rule.id == parts[0] }) else { return notFound(parts[0]) }
            faults.resetCounters(id: parts[0])
            return list()
        default:
            // Allow lists exactly what this path shape accepts (`reset` is reserved, not a rule id path).
            switch parts.count {
            case 0: return Responses.methodNotAllowed(allow: "GET, POST, DELETE")
            case 1: return Responses.methodNotAllowed(allow: parts[0] == "reset" ? "POST" : "GET, DELETE")
            case 2 where parts[1] == "reset": return Responses.methodNotAllowed(allow: "POST")
            default: return Responses.notFound()
            }
        }
    }

    func list() -> HTTPResponse {
        Responses.json(.object(JSONObject([("faults", .array(faults.statuses.map(Self.json)))])))
    }

    func add(_ request: HTTPRequest) -> HTTPResponse {
        let text = String(decoding: request.body, as: UTF8.self)
        let rule: FaultRule
        do {
            rule = try ScenarioLoader().loadFault(
                text, file: "body", scenario: provider.scenario, defaultID: "fault-\(faults.statuses.count + 1)")
        } catch {
            return Responses.json(
                .object(
                    JSONObject([
                        ("error", .string("invalid_request")),
                        ("problems", .array(error.diagnostics.map { .string($0.description) })),
                    ])), status: 400)
        }
        do {
            try faults.add(rule)
        } catch {
            return Responses.json(
                .object(
                    JSONObject([
                        ("error", .string(error.kind.rawValue)), ("error_description", .string(error.description)),
                    ])),
                status: 409)
        }
        return Responses.json(Self.json(FaultStatus(rule: rule, matched: 0, fired: 0)), status: 201)
    }

    func notFound(_ id: String) -> HTTPResponse {
        Responses.json(
            .object(
                JSONObject([("error", .string("not_found")), ("error_description", .string("unknown fault '\(id)'"))])),
            status: 404)
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
        object["action"] = .string(action.joined(separator: ", "))
        object["matched"] = .int(Int64(status.matched))
        object["fired"] = .int(Int64(status.fired))
        return .object(object)
    }
}
