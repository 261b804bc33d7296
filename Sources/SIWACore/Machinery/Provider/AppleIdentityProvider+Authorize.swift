import JOSE
import JSON
import ScenarioModel

/// What `/auth/authorize` delivers to the redirect_uri after the user continues.
package struct AuthorizationResponse: Sendable, Equatable {
    package var code: String
    package var idToken: String?
    package var state: String?
    /// The `user` form field (JSON text), first authorization with name/email scopes only.
    package var user: String?
    package var grant: AuthorizationGrant

    /// Fields in delivery order: `code`, `id_token`, `state`, `user` (docs/CONTRACTS.md).
    package var parameters: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [("code", code)]
        if let idToken { fields.append(("id_token", idToken)) }
        if let state { fields.append(("state", state)) }
        if let user { fields.append(("user", user)) }
        return fields
    }
}

/// What the user entered on the consent sheet of a first authorization: the name the app receives in
/// `user` (Apple lets the user edit it) and Share My Email / Hide My Email. Empty when no sheet asked.
package struct ConsentChoices: Sendable, Equatable {
    package var name: PersonName?
    package var email: EmailChoice?

    package init(name: PersonName? = nil, email: EmailChoice? = nil) {
        self.name = name
        self.email = email
    }
}

extension AppleIdentityProvider {
    /// The user continues: record consent, issue a code (and id_token with `c_hash` for `code id_token`).
    ///
    /// Web flow: no `real_user_status` (Apple sends it only to native first sign-ins). `choices` apply to a
    /// first authorization only; later ones keep the email choice stored with the consent.
    /// - Throws: `.unavailable` when a shared store cannot be reached, `.internal` when signing failed.
    package func authorize(
        _ request: AuthorizationRequest, as user: UserProfile, in snapshot: ProviderSnapshot? = nil,
        choices: ConsentChoices = ConsentChoices()
    ) throws(EndpointFailure) -> AuthorizationResponse {
        let now = clock.nowSeconds
        let snapshot = snapshot ?? self.snapshot
        let scenario = snapshot.scenario
        let groupID = scenario.consentGroupID(forClient: request.clientID)
        let (code, grant) = try EndpointFailure.storing { () throws(StoreUnavailable) in
            try snapshot.store.authorize(
                userID: user.id, clientID: request.clientID, consentGroupID: groupID, requestedScopes: request.scopes,
                redirectURI: request.redirectURI, nonce: request.nonce, now: now, nativeRealUserStatus: nil,
                forcedRealUserStatus: user.realUserStatusAlways ? user.realUserStatus : nil, emailChoice: choices.email)
        }
        let view = scenario.view(of: user, forClient: request.clientID, now: now, emailChoice: grant.emailChoice)
        var idToken: String?
        if request.responseType.includesIDToken {
            do throws(JOSEError) {
                idToken = try snapshot.idTokens.makeIDToken(
                    for: grant, user: view, issuedAt: now, companion: .code(code))
            } catch {
                throw .internal("id_token signing failed: \(error.message)")
            }
        }
        // Without sheet choices `user` is exactly what it always was (the scenario's profile).
        var shared = grant.emailChoice == nil ? user : view
        if let name = choices.name { shared.name = name }
        let userField = grant.isFirstAuthorization ? Self.userField(for: shared, scopes: request.scopes) : nil
        noteSignIn(userID: user.id)
        return AuthorizationResponse(code: code, idToken: idToken, state: request.state, user: userField, grant: grant)
    }

    /// The user pressed Cancel: `error=user_cancelled_authorize` plus `state`.
    package func cancellation(of request: AuthorizationRequest) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [("error", AppleError.Code.userCancelledAuthorize.rawValue)]
        if let state = request.state { fields.append(("state", state)) }
        return fields
    }

    /// `{"name":{"firstName":…,"lastName":…},"email":…}` holding only the requested scopes; nil when
    /// neither `name` nor `email` was requested.
    package static func userField(for user: UserProfile, scopes: [Scope]) -> String? {
        var object = JSONObject()
        if scopes.contains(.name) {
            object["name"] = .object(
                JSONObject([("firstName", .string(user.name.firstName)), ("lastName", .string(user.name.lastName))]))
        }
        if scopes.contains(.email) { object["email"] = .string(user.deliveredEmail) }
        guard !object.isEmpty else { return nil }
        return String(decoding: JSONValue.object(object).serialized(), as: UTF8.self)
    }
}
