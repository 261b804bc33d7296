import HTTP
import SIWACore

extension AppleEndpoints {
    /// `POST /auth/token`. A body that is not form-urlencoded (e.g. JSON) gets `invalid_client` by default,
    /// as Apple answers it (scenario `non_form_body`; docs/fidelity.md).
    func token(_ context: inout RequestContext) -> HTTPResponse {
        let fields: [(name: String, value: String)]
        switch clientForm(context, at: .token) {
        case .success(let merged): fields = merged
        case .failure(let failure): return context.refuse(failure, log: log)
        }
        var owner: PresentedOwner?
        defer { context.learnUser(owner) }
        switch provider.token(fields, owner: &owner) {
        case .success(var response):
            do throws(EndpointFailure) {
                response.idToken = try tampering(response.idToken, &context, in: provider.snapshot)
            } catch {
                return context.refuse(error, log: log)
            }
            return Responses.json(response.json)
        case .failure(let failure): return context.refuse(noting(failure, of: context, fields), log: log)
        }
    }

    /// `POST /auth/revoke`: 200 with an empty body, or Apple's 400. A non-form body is read like the token
    /// endpoint's (scenario `non_form_body`).
    func revoke(_ context: inout RequestContext) -> HTTPResponse {
        let fields: [(name: String, value: String)]
        switch clientForm(context, at: .revoke) {
        case .success(let merged): fields = merged
        case .failure(let failure): return context.refuse(failure, log: log)
        }
        var owner: PresentedOwner?
        defer { context.learnUser(owner) }
        switch provider.revoke(fields, owner: &owner) {
        case .success: return Responses.emptyOK()
        case .failure(let failure): return context.refuse(noting(failure, of: context, fields), log: log)
        }
    }

    /// The form body with Basic credentials merged in where the scenario allows it; a body that is not a
    /// form gets the scenario's `non_form_body` answer.
    private func clientForm(
        _ context: RequestContext, at endpoint: AppleIdentityProvider.FormEndpoint
    ) -> Result<[(name: String, value: String)], EndpointFailure> {
        switch context.form.body {
        case .absent, .notForm:
            return .failure(
                provider.nonFormBodyFailure(at: endpoint, contentType: context.request.headers.contentType))
        default:
            return formBody(context, notForm: .invalidClient).flatMap { withBasicCredentials(context, $0) }
                .mapError { EndpointFailure($0) }
        }
    }

    /// A refusal of a request whose Basic header was not read (`client_authentication: post`), noted in
    /// its reason.
    private func noting(
        _ failure: EndpointFailure, of context: RequestContext, _ fields: [(name: String, value: String)]
    ) -> EndpointFailure {
        guard context.request.headers.hasBasicAuthorization,
            !fields.contains(where: { $0.name == "client_id" })
        else { return failure }
        return AppleIdentityProvider.notingUnreadBasicHeader(failure)
    }

    /// The form with Basic credentials merged in (scenario `client_authentication: post_or_basic`).
    /// A malformed Basic header is `invalid_client`; credentials in the header and the body at once are
    /// `invalid_request` (TN3107: multiple credentials or authentication mechanisms).
    private func withBasicCredentials(
        _ context: RequestContext, _ form: [(name: String, value: String)]
    ) -> Result<[(name: String, value: String)], AppleError> {
        // The usual case reads no setting (that would take the provider's lock on the hot path).
        guard context.request.headers.authorization != nil else { return .success(form) }
        do {
            return .success(
                try ClientCredentials.merging(
                    basicFrom: context.request, into: form, method: provider.scenario.settings.clientAuthentication))
        } catch .multipleMechanisms {
            return .failure(.invalidRequest("Multiple client authentication mechanisms"))
        } catch {
            return .failure(.invalidClient)
        }
    }
}
