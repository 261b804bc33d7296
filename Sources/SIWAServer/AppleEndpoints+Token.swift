import HTTPServer
import SIWACore

extension AppleEndpoints {
    /// `POST /auth/token`. A body that is not form-urlencoded (e.g. JSON) has no readable grant_type,
    /// so it gets `unsupported_grant_type` (docs/fidelity.md).
    func token(_ context: inout RequestContext) -> HTTPResponse {
        let fields: [(name: String, value: String)]
        switch formBody(context, notForm: .unsupportedGrantType()).flatMap({ withBasicCredentials(context, $0) }) {
        case .success(let merged): fields = merged
        case .failure(let error): return context.refuse(error)
        }
        switch provider.token(fields) {
        case .success(let response): return Responses.json(response.json)
        case .failure(let failure): return context.refuse(failure, log: log)
        }
    }

    /// `POST /auth/revoke`: 200 with an empty body, or Apple's 400. A non-form body is an invalid
    /// content type → `invalid_request` (TN3107; revoke has no grant_type to misread).
    func revoke(_ context: inout RequestContext) -> HTTPResponse {
        let fields: [(name: String, value: String)]
        switch formBody(context, notForm: .invalidRequest("Invalid content type")).flatMap({
            withBasicCredentials(context, $0)
        }) {
        case .success(let merged): fields = merged
        case .failure(let error): return context.refuse(error)
        }
        switch provider.revoke(fields) {
        case .success: return Responses.emptyOK()
        case .failure(let failure): return context.refuse(failure, log: log)
        }
    }

    /// The form with Basic credentials merged in (scenario `client_authentication: post_or_basic`).
    /// A malformed Basic header is `invalid_client`; credentials in the header and the body at once are
    /// `invalid_request` (TN3107: multiple credentials or authentication mechanisms).
    private func withBasicCredentials(
        _ context: RequestContext, _ form: [(name: String, value: String)]
    ) -> Result<[(name: String, value: String)], AppleError> {
        // The usual case reads no setting (that would take the provider's lock on the hot path).
        guard context.request.headers["Authorization"] != nil else { return .success(form) }
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
