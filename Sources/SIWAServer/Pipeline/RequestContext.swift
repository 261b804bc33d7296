import HTTP
import JSON
import SIWACore
import ScenarioModel

/// What the pipeline and a handler learn about one request, carried from the route lookup to the
/// journal and the log line: the form decoded once, the client, the user, the outcome (Apple's error
/// code) and a human-readable reason for every refusal. Apple's response bodies stay exactly
/// Apple's; the reason goes only to the journal entry and the log.
package struct RequestContext {
    package let request: HTTPRequest
    /// The query and form body, decoded once.
    package let form: RequestForm
    /// The matched route's facts (for a miss, its surface's): what runs around the handler.
    package let facts: RouteFacts
    /// The route table that matched the request (the journal asks it which surface a path is on).
    let routes: RouteTable
    /// Path captures (`{user}` in `/mock/users/{user}`), percent-decoded.
    package internal(set) var captures: [String: String] = [:]
    /// The `client_id` the request concerned.
    package var clientID: String?
    /// The scenario user id the request concerned (owner of the code or token, login hint, body `user`).
    package var user: String?
    /// `ok`, Apple's error code (`invalid_grant`), a control error (`not_found`) or `http_<status>`.
    package var outcome: String?
    /// Why the request was refused, in words, e.g. "code was issued for redirect_uri https://a".
    package var reason: String?
    /// The fault rule that answered instead of the endpoint.
    package var fault: String?
    /// The case the firing fault rule asks the answer's id_token to be (`tamper:`); nil: a valid one.
    package var tamper: TamperCase?
    /// The case the answer's id_token was made (set only where one was issued), for the journal.
    package var tampered: TamperCase?
    /// Whether `user` is settled: a handler learned it from the store's answer (`learnUser`), or the
    /// pipeline looked it up (`RequestPipeline`); until then the pipeline may still ask the store.
    package var userSettled = false
    /// The request is answered on a background thread, not an event loop: a handler may wait for
    /// background work (a key generation) there (`RouteFacts.Lane.backgroundWork`).
    package let offLoop: Bool
    /// The control body, parsed once when a handler first asks for it.
    private var parsedJSON: Result<JSONValue, ControlFailure>?

    /// The context of a request entering the pipeline: its form decoded, its `client_id` read.
    static func make(_ request: consuming HTTPRequest, facts: RouteFacts, routes: RouteTable, offLoop: Bool)
        -> RequestContext
    {
        let form = RequestForm(request)
        let clientID = form.field("client_id")
        // The synthesized memberwise init: with it the context is built where it is kept. A hand-written
        // init that assigns a computed field builds it, then copies it field by field (Swift 6.3; ~1,100
        // instructions a request, bench/RESULTS.md).
        return RequestContext(
            request: request, form: form, facts: facts, routes: routes, clientID: clientID, offLoop: offLoop)
    }

    /// The owner the store's presentation step found (nil: the store was not asked, and the pipeline
    /// looks the user up itself after the handler).
    mutating func learnUser(_ owner: PresentedOwner?) {
        guard let owner else { return }
        if user == nil { user = owner.user }
        userSettled = true
    }

    /// The request's user once settled: the handler's (or the store's answer's), else what `lookup` finds
    /// from the request's form (asked at most once; the context is not captured, so callers holding it
    /// `inout` can ask).
    mutating func settleUser(_ lookup: (RequestForm) -> String?) -> String? {
        if !userSettled {
            if user == nil { user = lookup(form) }
            userSettled = true
        }
        return user
    }

    /// A path capture declared by the route.
    package func capture(_ name: String) -> String { captures[name] ?? "" }

    /// Records Apple's error and the reason, and renders Apple's 400 (or a logged 500 for the mock's own
    /// failures).
    mutating func refuse(_ failure: EndpointFailure, log: (String) -> Void) -> HTTPResponse {
        switch failure {
        case .apple(let error, let reason):
            return refuse(error, reason: reason)
        case .internal(let reason):
            outcome = "server_error"
            self.reason = reason
            log("500 \(request.method) \(request.path): \(reason)")
            return Responses.internalError()
        case .unavailable(let error):
            outcome = "store_unavailable"
            self.reason = error.description
            log("503 \(request.method) \(request.path): \(error.description)")
            return Responses.storeUnavailable()
        }
    }

    /// Apple's 400 `{"error","error_description"?}` with the reason kept for the journal and log.
    mutating func refuse(_ error: AppleError, reason: String? = nil) -> HTTPResponse {
        outcome = error.code.rawValue
        self.reason = reason ?? error.message ?? error.code.rawValue
        return Responses.error(error)
    }

    /// The control body as a JSON object reader; parsed on first use, then reused.
    mutating func json(required: Bool = false) throws(ControlFailure) -> JSONBody {
        if request.body.isEmpty {
            if required { throw .invalid("body", "a JSON object is required") }
            return JSONBody(object: JSONObject())
        }
        if parsedJSON == nil {
            do {
                parsedJSON = .success(try JSONValue.parse(request.body, maxDepth: 16))
            } catch {
                parsedJSON = .failure(.invalid("body", "not valid JSON: \(error)"))
            }
        }
        switch parsedJSON! {
        case .success(let value):
            guard let object = value.objectValue else { throw .invalid("body", "must be a JSON object") }
            return JSONBody(object: object)
        case .failure(let failure):
            throw failure
        }
    }

    /// The control body's object if a handler parsed it (the journal reads `client_id`, `user`, `type`).
    var parsedObject: JSONObject? {
        if case .success(let value)? = parsedJSON { value.objectValue } else { nil }
    }

    /// The query of a control GET, from the one decode; bad escapes are a 400 naming `query`.
    func query() throws(ControlFailure) -> QueryParameters {
        switch form.query {
        case .absent, .notForm: return QueryParameters(pairs: [])
        case .fields(let pairs): return QueryParameters(pairs: pairs)
        case .invalid(let message): throw .invalid("query", "bad percent-encoding: \(message)")
        }
    }

    /// Log fields for this exchange (`client_id`, `user`, `outcome`, `reason`, `fault`).
    var logFields: [String: String] {
        var fields: [String: String] = [:]
        if let clientID { fields["client_id"] = clientID }
        if let user { fields["user"] = user }
        if let outcome, outcome != "ok" { fields["outcome"] = outcome }
        if let reason { fields["reason"] = reason }
        if let fault { fields["fault"] = fault }
        return fields
    }
}

extension RequestContext {
    /// Records a control API refusal and renders it.
    mutating func refuse(_ failure: ControlFailure) -> HTTPResponse {
        outcome = failure.error
        reason = failure.message
        return failure.response
    }
}
