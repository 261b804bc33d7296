import Background
import HTTPServer
import JSON
import SIWACore

/// The mock's own API under `/mock/` (JSON in and out; README "control API" section, `/mock/openapi.json`).
/// Apple's endpoints stay in `AppleEndpoints`; both share one `AppleIdentityProvider`, so control
/// calls change what the Apple endpoints answer.
///
/// Errors: `{"error","field"?,"message"}` with 400 (bad field), 404 (unknown user, client, key or
/// path), 405, 409 (contradicts the state), 401 (admin token); nothing is partially applied.
public struct ControlEndpoints: HTTPResponder {
    /// Turns scenario text into a scenario, or positioned error lines (wired by the executable once
    /// the scenario loader exists; without it `PUT /mock/scenario` answers 501).
    public typealias ScenarioLoader = @Sendable ([UInt8]) -> Result<Scenario, ScenarioLoadFailure>

    public let provider: AppleIdentityProvider
    public let journal: RequestJournal
    public let notifications: NotificationDispatcher
    let scenarioLoader: ScenarioLoader?

    public init(
        provider: AppleIdentityProvider, journal: RequestJournal = RequestJournal(),
        notifications: NotificationDispatcher? = nil, scenarioLoader: ScenarioLoader? = nil
    ) {
        self.provider = provider
        self.journal = journal
        self.notifications =
            notifications
            ?? NotificationDispatcher(provider: provider, journal: journal, scheduler: BackgroundScheduler())
        self.scenarioLoader = scenarioLoader
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        do throws(ControlFailure) {
            return try route(request)
        } catch {
            return error.response
        }
    }

    private func route(_ request: HTTPRequest) throws(ControlFailure) -> HTTPResponse {
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2).map(
            String.init)
        let method = request.method
        switch segments {
        case ["health"]:
            try allow(method, ["GET", "HEAD"])
            return Responses.json(.object(JSONObject([("status", .string("ok"))])))
        case ["openapi.json"]:
            try allow(method, ["GET"])
            return Responses.json(OpenAPIDocument.bytes)
        case ["reset"]:
            try allow(method, ["POST"])
            provider.reset()
            return Responses.json(.object(JSONObject([("status", .string("reset"))])))
        case ["scenario"]:
            try allow(method, ["PUT"])
            return try replaceScenario(request)
        case ["credentials"]:
            try allow(method, ["POST"])
            return try credentials(request)
        case ["credential-state"]:
            try allow(method, ["GET"])
            return try credentialState(request)
        case ["users"]:
            try allow(method, ["GET", "POST"])
            return method == "GET" ? listUsers() : try addUser(request)
        case let path where path.count == 2 && path[0] == "users" && !path[1].isEmpty:
            try allow(method, ["GET", "PATCH", "DELETE"])
            let name = Self.percentDecoded(path[1])
            switch method {
            case "GET": return try getUser(name)
            case "PATCH": return try patchUser(name, request)
            default: return try deleteUser(name)
            }
        case ["clock"]:
            try allow(method, ["GET", "POST"])
            return method == "GET" ? clockState() : try changeClock(request)
        case ["keys"]:
            try allow(method, ["GET"])
            return keyList()
        case ["keys", "rotate"]:
            try allow(method, ["POST"])
            return try rotateKeys(request)
        case let path where path.count == 3 && path[0] == "keys" && ["publish", "retire", "sign"].contains(path[2]):
            try allow(method, ["POST"])
            return try changeKey(kid: Self.percentDecoded(path[1]), action: path[2])
        case ["requests"]:
            try allow(method, ["GET", "DELETE"])
            return method == "GET" ? try listRequests(request) : clearRequests()
        case ["app-groups"]:
            try allow(method, ["GET"])
            return listAppGroups()
        case let path where path.count == 2 && path[0] == "app-groups" && !path[1].isEmpty:
            try allow(method, ["PATCH"])
            return try patchAppGroup(Self.percentDecoded(path[1]), request)
        case ["notifications", "settings"]:
            try allow(method, ["GET", "PATCH"])
            return method == "GET" ? notificationSettings() : try patchNotificationSettings(request)
        case ["notifications"]:
            try allow(method, ["GET", "POST"])
            return method == "GET" ? listNotifications() : try sendNotification(request)
        default:
            throw ControlFailure(status: 404, error: "not_found", field: "path", "no control endpoint \(request.path)")
        }
    }

    private func allow(_ method: String, _ methods: [String]) throws(ControlFailure) {
        guard methods.contains(method) else {
            var failure = ControlFailure(
                status: 405, error: "method_not_allowed", field: "method",
                "\(method) not allowed; use \(methods.joined(separator: ", "))")
            failure.allow = methods.joined(separator: ", ")
            throw failure
        }
    }

    /// Percent-decodes a path segment (`alice%40example.com`); malformed escapes stay as sent.
    static func percentDecoded(_ segment: String) -> String {
        (try? URLEncodedForm.decode(Array("v=\(segment)".utf8)).first?.value) ?? segment
    }

    static func ok(_ object: JSONObject, status: Int = 200) -> HTTPResponse {
        Responses.json(.object(object), status: status)
    }
}

/// Why scenario text was refused: every problem, each `file:line:column: message`.
public struct ScenarioLoadFailure: Error, Sendable, Equatable {
    public var errors: [String]

    public init(errors: [String]) {
        self.errors = errors
    }
}
