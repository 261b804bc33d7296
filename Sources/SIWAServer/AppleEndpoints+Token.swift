import HTTPServer
import SIWACore

extension AppleEndpoints {
    /// `POST /auth/token`. A body that is not form-urlencoded (e.g. JSON) gets `invalid_client` by default
    /// (docs/fidelity.md; scenario `non_form_body`).
    func token(_ request: HTTPRequest) -> HTTPResponse {
        let form: [(name: String, value: String)]
        do {
            form = try FormBody.fields(of: request)
        } catch .notForm {
            return render(
                provider.nonFormBodyFailure(at: .token, contentType: request.headers["Content-Type"]), on: request)
        } catch {
            return Responses.error(.invalidRequest("Invalid form encoding"))
        }
        let fields: [(name: String, value: String)]
        switch withBasicCredentials(request, form) {
        case .success(let merged): fields = merged
        case .failure(let error): return Responses.error(error)
        }
        switch provider.token(fields) {
        case .success(let response): return Responses.json(response.json)
        case .failure(let failure): return render(noting(failure, of: request, fields), on: request)
        }
    }

    /// `POST /auth/revoke`: 200 with an empty body, or Apple's 400. A non-form body is read like the token
    /// endpoint's (scenario `non_form_body`).
    func revoke(_ request: HTTPRequest) -> HTTPResponse {
        let form: [(name: String, value: String)]
        do {
            form = try FormBody.fields(of: request)
        } catch .notForm {
            return render(
                provider.nonFormBodyFailure(at: .revoke, contentType: request.headers["Content-Type"]), on: request)
        } catch {
            return Responses.error(.invalidRequest("Invalid form encoding"))
        }
        let fields: [(name: String, value: String)]
        switch withBasicCredentials(request, form) {
        case .success(let merged): fields = merged
        case .failure(let error): return Responses.error(error)
        }
        switch provider.revoke(fields) {
        case .success: return Responses.emptyOK()
        case .failure(let failure): return render(noting(failure, of: request, fields), on: request)
        }
    }

    /// A refusal of a request whose Basic header was not merged into the fields, noted in its reason.
    private func noting(
        _ failure: EndpointFailure, of request: HTTPRequest, _ fields: [(name: String, value: String)]
    ) -> EndpointFailure {
        guard request.headers["Authorization"]?.lowercased().hasPrefix("basic ") == true,
            !fields.contains(where: { $0.name == "client_id" })
        else { return failure }
        return AppleIdentityProvider.notingUnreadBasicHeader(failure)
    }

    /// The form with Basic credentials merged in (scenario `client_authentication: post_or_basic`).
    /// A malformed Basic header is `invalid_client`; credentials in the header and the body at once are
    /// `invalid_request` (TN3107: multiple credentials or authentication mechanisms).
    private func withBasicCredentials(
        _ request: HTTPRequest, _ form: [(name: String, value: String)]
    ) -> Result<[(name: String, value: String)], AppleError> {
        // The usual case reads no setting (that would take the provider's lock on the hot path).
        guard request.headers["Authorization"] != nil else { return .success(form) }
        do {
            return .success(
                try ClientCredentials.merging(
                    basicFrom: request, into: form, method: provider.scenario.settings.clientAuthentication))
        } catch .multipleMechanisms {
            return .failure(.invalidRequest("Multiple client authentication mechanisms"))
        } catch {
            return .failure(.invalidClient)
        }
    }
}
