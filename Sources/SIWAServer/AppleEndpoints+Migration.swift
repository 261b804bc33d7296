import HTTP
import SIWACore

extension AppleEndpoints {
    /// `POST /auth/usermigrationinfo`: form body plus `Authorization: Bearer`
    /// (https://developer.apple.com/documentation/sign_in_with_apple/transferring_your_apps_and_users_to_another_team).
    /// A non-form body is an invalid content type → `invalid_request` (TN3107).
    func userMigrationInfo(_ context: inout RequestContext) -> HTTPResponse {
        let form: [(name: String, value: String)]
        switch formBody(context, notForm: .invalidRequest("Invalid content type")) {
        case .success(let fields): form = fields
        case .failure(let error): return context.refuse(error)
        }
        switch provider.userMigrationInfo(form, authorization: context.request.headers.authorization) {
        case .success(let body): return Responses.json(body)
        case .failure(let failure): return context.refuse(failure, log: log)
        }
    }
}
