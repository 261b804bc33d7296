import HTTPServer
import SIWACore

extension AppleEndpoints {
    /// `POST /auth/token`. A body that is not form-urlencoded (e.g. JSON) has no readable grant_type,
    /// so it gets `unsupported_grant_type`, as Apple answers JSON bodies (evidence in docs/fidelity.md).
    func token(_ request: HTTPRequest) -> HTTPResponse {
        let form: [(name: String, value: String)]
        do {
            form = try FormBody.fields(of: request)
        } catch .notForm {
            return Responses.error(.unsupportedGrantType())
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
        case .failure(let failure): return render(failure, on: request)
        }
    }

    /// `POST /auth/revoke`: 200 with an empty body, or Apple's 400. A non-form body is an invalid
    /// content type → `invalid_request` (TN3107; revoke has no grant_type to misread).
    func revoke(_ request: HTTPRequest) -> HTTPResponse {
        let form: [(name: String, value: String)]
        do {
            form = try FormBody.fields(of: request)
        } catch .notForm {
            return Responses.error(.invalidRequest("Invalid content type"))
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
        case .failure(let failure): return render(failure, on: request)
        }
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
