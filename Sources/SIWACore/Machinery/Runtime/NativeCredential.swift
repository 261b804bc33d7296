import JOSE
import JSON
import ScenarioModel

/// What `ASAuthorizationAppleIDCredential` hands a native app after Sign in with Apple
/// (https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential),
/// produced by `POST /mock/credentials`.
package struct NativeCredential: Sendable, Equatable {
    /// The team-scoped user id (`sub`) for the app's team.
    package var user: String
    package var identityToken: String
    /// Redeemable at `/auth/token` with the bundle ID and no `redirect_uri`, within 5 minutes.
    package var authorizationCode: String
    /// First authorization with the name scope only.
    package var fullName: PersonName?
    /// First authorization with the email scope only (relay address for private-email users).
    package var email: String?
    /// The user's status on the first authorization; `unsupported` (0) afterwards, as on a device.
    package var realUserStatus: RealUserStatus
    package var authorizedScopes: [Scope]
    package var state: String?
    /// Made for an account-upgrade extension (`upgradeToSignInWithApple`): a mock marker, shown as
    /// `isAccountUpgrade` in JSON only when true.
    package var isAccountUpgrade = false

    /// `ASAuthorization.Scope` raw values: `full_name`, `email`.
    package static func wireName(of scope: Scope) -> String {
        switch scope {
        case .name: "full_name"
        case .email: "email"
        case .openid: "openid"
        }
    }

    /// Accepts `full_name`, `fullName`, `name` and `email`.
    package static func scope(named name: String) -> Scope? {
        switch name {
        case "full_name", "fullName", "name": .name
        case "email": .email
        default: nil
        }
    }

    /// `{"user","identityToken","authorizationCode","fullName","email","realUserStatus","authorizedScopes","state"}`;
    /// `fullName`, `email` and `state` are `null` when absent, as the optional properties are nil.
    package var json: JSONValue {
        var object = JSONObject()
        object["user"] = .string(user)
        object["identityToken"] = .string(identityToken)
        object["authorizationCode"] = .string(authorizationCode)
        if let fullName {
            object["fullName"] = .object(
                JSONObject([("givenName", .string(fullName.firstName)), ("familyName", .string(fullName.lastName))]))
        } else {
            object["fullName"] = .null
        }
        object["email"] = email.map { .string($0) } ?? .null
        object["realUserStatus"] = .int(Int64(realUserStatus.rawValue))
        object["authorizedScopes"] = .array(authorizedScopes.map { .string(Self.wireName(of: $0)) })
        object["state"] = state.map { .string($0) } ?? .null
        if isAccountUpgrade { object["isAccountUpgrade"] = .bool(true) }
        return .object(object)
    }
}

extension AppleIdentityProvider {
    /// Signs `user` in to the native app `clientID` as AuthenticationServices would.
    ///
    /// `user` may be a scenario id, email, or a `sub` in any team: a transferred app asked with the
    /// old team's id (silent re-authorization) gets the new team's id. The identity token carries
    /// `nonce` (when given), `c_hash` of the code, and `real_user_status` on the first authorization;
    /// `tamper` (from a firing `tamper:` fault rule only: `FaultEngine.tampering`) breaks it as that case.
    /// - Throws: `ProviderChangeError` `.notFound` (user, client) or `.invalid` (a Services ID, bad scopes).
    package func nativeCredential(
        clientID: String, user value: String, scopes: [Scope] = [.name, .email], nonce: String? = nil,
        state: String? = nil, tamper: TamperCase? = nil
    ) throws(ProviderChangeError) -> NativeCredential {
        for (name, value) in [("nonce", nonce), ("state", state)] {
            if let value, value.utf8.count > ParameterLimits.maximumBytes(for: name) {
                throw ProviderChangeError(
                    .invalid, field: name, "longer than \(ParameterLimits.maximumBytes(for: name)) bytes")
            }
        }
        let now = clock.nowSeconds
        let snapshot = self.snapshot
        let scenario = snapshot.scenario
        _ = try scenario.nativeClient(id: clientID)
        guard let user = scenario.user(matching: value)?.user else {
            throw .unknownUser(value, among: scenario.users.map(\.id))
        }
        let groupID = scenario.consentGroupID(forClient: clientID)
        let (code, grant) = try ProviderChangeError.storing { () throws(StoreUnavailable) in
            try snapshot.store.authorize(
                userID: user.id, clientID: clientID, consentGroupID: groupID, requestedScopes: scopes, redirectURI: nil,
                nonce: nonce, now: now, nativeRealUserStatus: user.realUserStatus,
                forcedRealUserStatus: user.realUserStatusAlways ? user.realUserStatus : nil, emailChoice: nil)
        }
        let view = scenario.view(of: user, forClient: clientID, now: now)
        var token: String
        do {
            token = try snapshot.idTokens.makeIDToken(for: grant, user: view, issuedAt: now, companion: .code(code))
            if let tamper { token = try snapshot.tamperer.idToken(token, as: tamper) }
        } catch {
            throw ProviderChangeError(.invalid, field: nil, "identity token signing failed: \(error.message)")
        }
        noteSignIn(userID: user.id)
        let first = grant.isFirstAuthorization
        return NativeCredential(
            user: view.sub, identityToken: token, authorizationCode: code,
            fullName: first && grant.scopes.contains(.name) ? user.name : nil,
            email: first && grant.scopes.contains(.email) ? view.deliveredEmail : nil,
            realUserStatus: first ? user.realUserStatus : .unsupported, authorizedScopes: grant.scopes, state: state)
    }
}

extension Scenario {
    /// The native app (App ID) `clientID`, or why it cannot get native credentials: unknown, or a
    /// Services ID, each with the App ID it was probably meant to be.
    package func nativeClient(id clientID: String) throws(ProviderChangeError) -> Client {
        let apps = clients.filter { $0.kind == .native }.map(\.id)
        guard let client = client(id: clientID) else { throw .unknownClient(clientID, among: clients.map(\.id)) }
        guard client.kind == .native else {
            // The App ID sharing consent with this Services ID is the likeliest meant one.
            let group = consentGroupID(forClient: clientID)
            let sibling = apps.first { consentGroupID(forClient: $0) == group } ?? apps.first
            throw ProviderChangeError(
                .invalid, field: "client_id",
                "'\(clientID)' is a Services ID; native credentials come from App IDs"
                    + (sibling.map { " (did you mean '\($0)'?)" } ?? ""))
        }
        return client
    }
}
