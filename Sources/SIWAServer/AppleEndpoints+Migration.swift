import HTTPServer
import SIWACore

extension AppleEndpoints {
    /// `POST /auth/usermigrationinfo`: form body plus `Authorization: Bearer`
    /// (https://developer.apple.com/documentation/signinwithapple/transferring-your-apps-and-users-to-another-team).
    /// A non-form body is an invalid content type → `invalid_request` (TN3107).
    func userMigrationInfo(_ request: HTTPRequest) -> HTTPResponse {
        let form: [(name: String, value: String)]
        do {
            form = try FormBody.fields(of: request)
        } catch .notForm {
            return Responses.error(.invalidRequest("Invalid content type"))
        } catch {
            return Responses.error(.invalidRequest("Invalid form encoding"))
        }
        switch provider.userMigrationInfo(form, authorization: request.headers["Authorization"]) {
        case .success(let body): return Responses.json(body)
        case .failure(let failure): return render(failure, on: request)
        }
    }
}
