import HTTPServer
import SIWACore

extension AppleEndpoints {
    /// `POST /auth/token`. A body that is not form-urlencoded (e.g. JSON) has no readable grant_type,
    /// so it gets `unsupported_grant_type`, as Apple answers JSON bodies (apple-api.md §12.10).
    func token(_ request: HTTPRequest) -> HTTPResponse {
        let form: [(name: String, value: String)]
        do {
            form = try FormBody.fields(of: request)
        } catch .notForm {
            return Responses.error(.unsupportedGrantType())
        } catch {
            return Responses.error(.invalidRequest("Invalid form encoding"))
        }
        switch provider.token(form) {
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
        switch provider.revoke(form) {
        case .success: return Responses.emptyOK()
        case .failure(let failure): return render(failure, on: request)
        }
    }
}
