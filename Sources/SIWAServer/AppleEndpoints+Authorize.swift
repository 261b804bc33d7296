import HTTP
import JOSE
import SIWACore

extension AppleEndpoints {
    /// `GET|POST /auth/authorize`: validates (errors answered directly as 400 JSON with no-store), then
    /// `cancel=1` → `user_cancelled_authorize` to the redirect_uri; `login_hint` (user id, email or sub)
    /// → the user continues headlessly; neither → the consent sheet (`AppleEndpoints+Sheet`). An unknown `login_hint` is a 400
    /// `invalid_request` "Unknown login_hint: <hint>" (a mock extension; Apple has no such parameter).
    func authorize(_ context: inout RequestContext) -> HTTPResponse {
        let request = context.request
        let parameters: [(name: String, value: String)]
        switch request.method == .post ? context.form.body : context.form.query {
        case .fields(let fields): parameters = fields
        case .absent where request.method != .post: parameters = []
        case .absent, .notForm: return context.refuse(.invalidRequest("Invalid content type"))
        case .invalid: return context.refuse(.invalidRequest("Invalid parameter encoding"))
        }

        var snapshot = provider.snapshot  // one scenario version for the whole request
        let authorization: AuthorizationRequest
        switch snapshot.authorizationRequests.validate(parameters) {
        case .success(let valid): authorization = valid
        case .failure(let error):
            return context.refuse(error, reason: snapshot.authorizationRequests.reason(for: error, parameters))
        }

        func value(_ name: String) -> String? { parameters.first { $0.name == name }?.value }
        if value("cancel") == "1" {
            context.outcome = "user_cancelled_authorize"
            context.reason = "the user pressed Cancel"
            return deliver(provider.cancellation(of: authorization), for: authorization, in: snapshot)
        }
        guard let hint = value("login_hint") else {
            return consentSheet(&context, authorization, parameters: parameters, snapshot: snapshot)
        }
        // A user another replica added less than a poll period ago: take the fleet's user changes first.
        if snapshot.scenario.user(matchingHint: hint) == nil && provider.refreshUsersFromFleet() {
            snapshot = provider.snapshot
        }
        guard let user = snapshot.scenario.user(matchingHint: hint) else {
            return context.refuse(
                .invalidRequest("Unknown login_hint: \(hint)"), reason: "no scenario user matches login_hint '\(hint)'")
        }
        context.user = user.id
        do {
            var response = try provider.authorize(authorization, as: user, in: snapshot)
            response.idToken = try tampering(response.idToken, &context, in: snapshot)
            return deliver(response.parameters, for: authorization, in: snapshot)
        } catch {
            return context.refuse(error, log: log)
        }
    }

    /// Sends `fields` to the redirect_uri in the request's response mode: 302 with the fields in the
    /// query or fragment, the auto-submitting form for `form_post`, or the page posting them to
    /// `window.opener` at the redirect_uri's origin for `web_message`. `snapshot` is the request's one
    /// scenario version (a reload mid-request must not lend it another version's web_message shape).
    func deliver(
        _ fields: [(name: String, value: String)], for authorization: AuthorizationRequest,
        in snapshot: ProviderSnapshot
    ) -> HTTPResponse {
        let encoded = URLEncodedForm.encode(fields.map { ($0.name, $0.value) })
        let uri = authorization.redirectURI
        switch authorization.responseMode {
        case .query:
            return Responses.redirect(to: uri + (uri.contains("?") ? "&" : "?") + encoded)
        case .fragment:
            return Responses.redirect(to: uri + "#" + encoded)
        case .formPost:
            // Apple's form_post sends `state` before `code`: `state, code, user`, as two logged bodies of
            // Apple's POST show (docs/fidelity.md, "Behaviours"); query and fragment keep `code` first.
            let ordered =
                fields.contains { $0.name == "code" }
                ? fields.filter { $0.name == "state" } + fields.filter { $0.name != "state" } : fields
            return Responses.html(
                AuthorizePages.formPost(to: uri, fields: ordered), policy: AuthorizePages.formPostPolicy(to: uri))
        case .webMessage:
            let message = AuthorizePages.webMessagePayload(fields, shape: snapshot.scenario.settings.webMessageShape)
            return Responses.html(
                AuthorizePages.webMessage(message, toOrigin: ContentSecurityPolicy.origin(of: uri)),
                policy: AuthorizePages.webMessagePolicy)
        }
    }
}
