import HTTP
import JSON
import SIWACore
import ScenarioModel

/// Users, native credentials and credential state.
extension ControlEndpoints {
    /// `POST /mock/credentials {client_id, user, scopes?, nonce?, state?, requests?,
    /// prefer_immediately_available?, account_upgrade?}`: without `requests`, the Apple ID sheet
    /// (`ASAuthorizationAppleIDRequest`); with `requests` (`apple_id`, `password`), an existing-account
    /// flow answered `{"type": "apple_id", …}` or `{"type": "password", "user", "password", "domain"}`,
    /// or 409 `no_credentials` with the `ASAuthorizationError` code; with `account_upgrade: true`, the
    /// credential an account-upgrade extension gets (docs/control-api.md).
    func credentials(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let body = try context.json()
        try body.allowOnly([
            "client_id", "user", "scopes", "nonce", "state", "requests", "prefer_immediately_available",
            "account_upgrade",
        ])
        let clientID = try body.requiredString("client_id")
        let user = try body.requiredString("user")
        var scopes: [Scope] = [.name, .email]
        if let names = try body.strings("scopes") {
            scopes = []
            for name in names {
                guard let scope = NativeCredential.scope(named: name) else {
                    throw .invalid("scopes", "unknown scope '\(name)' (use full_name, email)")
                }
                if !scopes.contains(scope) { scopes.append(scope) }
            }
        }
        let nonce = try body.string("nonce")
        let state = try body.string("state")
        var requests: [CredentialRequestKind]?
        if let names = try body.strings("requests") { requests = try Self.credentialRequests(names) }
        let prefer = try body.bool("prefer_immediately_available")
        let upgrade = try body.bool("account_upgrade") ?? false
        if upgrade && requests != nil {
            throw .invalid("account_upgrade", "an account upgrade is its own request; leave out 'requests'")
        }
        if prefer != nil && requests == nil {
            throw .invalid("prefer_immediately_available", "applies to a 'requests' list (existing-account flows)")
        }
        let answer: Result<ExistingAccountAnswer, NoCredentials>
        do throws(ProviderChangeError) {
            if upgrade {
                let credential = try provider.upgradeToSignInWithApple(
                    clientID: clientID, user: user, nonce: nonce, state: state)
                return Responses.json(Self.typed("apple_id", credential.json))
            }
            guard let requests else {
                let tampering = tamperingRule(forCredentialOf: clientID, user: user)
                let credential = try provider.nativeCredential(
                    clientID: clientID, user: user, scopes: scopes, nonce: nonce, state: state,
                    tamper: tampering?.tamper)
                context.tampered = tampering?.tamper
                return Responses.json(credential.json)
            }
            answer = try provider.existingAccountCredential(
                clientID: clientID, user: user, requests: requests, preferImmediatelyAvailable: prefer ?? true,
                scopes: scopes, nonce: nonce, state: state)
        } catch {
            throw ControlFailure(error)
        }
        switch answer {
        case .success(.appleID(let credential)):
            return Responses.json(Self.typed("apple_id", credential.json))
        case .success(.password(let saved)):
            return Self.ok(
                JSONObject([
                    ("type", .string("password")), ("user", .string(saved.user)),
                    ("password", .string(saved.password)), ("domain", .string(saved.domain)),
                ]))
        case .failure(let none):
            var failure = ControlFailure(status: .conflict, error: "no_credentials", field: "requests", none.reason)
            failure.details = [("authorization_error", .string(none.name)), ("code", .int(Int64(none.code)))]
            throw failure
        }
    }

    /// `["apple_id", "password"]` → request kinds, each once, in order.
    static func credentialRequests(_ names: [String]) throws(ControlFailure) -> [CredentialRequestKind] {
        var kinds: [CredentialRequestKind] = []
        for name in names {
            guard let kind = CredentialRequestKind(rawValue: name) else {
                throw .invalid("requests", "unknown request '\(name)' (use apple_id, password)")
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        if kinds.isEmpty { throw .invalid("requests", "must name apple_id, password or both") }
        return kinds
    }

    /// `{"type": type, …credential}`.
    static func typed(_ type: String, _ credential: JSONValue) -> JSONValue {
        var object = JSONObject([("type", .string(type))])
        if case .object(let fields) = credential { for (name, value) in fields.pairs { object[name] = value } }
        return .object(object)
    }

    /// `GET /mock/credential-state?user=SUB&client_id=ID` → `{"state": "authorized"|"revoked"|"notFound"|"transferred"}`.
    func credentialState(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let query = try context.query()
        let user = try query.required("user")
        let clientID = try query.required("client_id")
        let answer: AppleIdentityProvider.CredentialStateAnswer
        do throws(ProviderChangeError) {
            answer = try provider.credentialStateAnswer(user: user, clientID: clientID)
        } catch {
            throw ControlFailure(error)
        }
        // An identifier the mock does not know is `notFound`, as on a device; why goes to the journal and log.
        context.reason = answer.reason
        let state = answer.state
        let name: String
        switch state {
        case .authorized: name = "authorized"
        case .revoked: name = "revoked"
        case .notFound: name = "notFound"
        case .transferred: name = "transferred"
        }
        return Self.ok(JSONObject([("state", .string(name)), ("raw_value", .int(Int64(state.rawValue)))]))
    }

    func listUsers() -> HTTPResponse {
        let users = provider.scenario.users.map { UserJSON.render($0, provider: provider) }
        return Self.ok(JSONObject([("users", .array(users))]))
    }

    func getUser(_ name: String) throws(ControlFailure) -> HTTPResponse {
        guard let user = provider.user(named: name) else {
            throw ControlFailure(.unknownUser(name, field: "id", among: provider.scenario.users.map(\.id)))
        }
        return Responses.json(UserJSON.render(user, provider: provider))
    }

    /// `PATCH /mock/users/{id}`: every field optional; unknown fields and bad values are 400s.
    func patchUser(_ name: String, _ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let body = try context.json(required: true)
        try body.allowOnly([
            "credential_state", "email_forwarding", "real_user_status", "email", "email_verified", "private_email",
            "relay_email", "first_name", "last_name",
        ])
        let change = UserChange(
            credentialState: try UserJSON.credentialState(body, "credential_state"),
            emailForwardingEnabled: try body.bool("email_forwarding"),
            realUserStatus: try UserJSON.realUserStatus(body, "real_user_status"), email: try body.string("email"),
            emailVerified: try body.bool("email_verified"), privateEmail: try body.bool("private_email"),
            relayEmail: try body.string("relay_email"), firstName: try body.string("first_name"),
            lastName: try body.string("last_name"))
        do throws(ProviderChangeError) {
            let user = try provider.updateUser(name, change)
            return Responses.json(UserJSON.render(user, provider: provider))
        } catch {
            throw ControlFailure(
                error.field == "user" ? ProviderChangeError(error.kind, field: "id", error.message) : error)
        }
    }

    /// `POST /mock/users {id, email, sub?, private_email?, relay_email?, first_name?, last_name?, …}` → 201.
    func addUser(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let body = try context.json(required: true)
        try body.allowOnly([
            "id", "sub", "email", "email_verified", "private_email", "relay_email", "first_name", "last_name",
            "real_user_status", "email_forwarding",
        ])
        let privateEmail = try body.bool("private_email") ?? false
        let relay = try body.string("relay_email")
        let user = UserProfile(
            id: try body.requiredString("id"), sub: try body.string("sub") ?? "",
            email: try body.requiredString("email"),
            emailVerified: try body.bool("email_verified") ?? true, privateEmail: privateEmail, relayEmail: relay,
            name: PersonName(
                firstName: try body.string("first_name") ?? "", lastName: try body.string("last_name") ?? ""),
            realUserStatus: try UserJSON.realUserStatus(body, "real_user_status") ?? .likelyReal,
            emailForwardingEnabled: try body.bool("email_forwarding") ?? true)
        let added: UserProfile
        do throws(ProviderChangeError) {
            added = try provider.addUser(user)
        } catch {
            throw ControlFailure(error)
        }
        try publishUser(added.id, before: nil)
        return Responses.json(UserJSON.render(added, provider: provider), status: .created)
    }

    /// `DELETE /mock/users/{id}`: the user deletes their Apple Account.
    func deleteUser(_ name: String) throws(ControlFailure) -> HTTPResponse {
        do throws(ProviderChangeError) {
            let removed = try provider.deleteAccount(name)
            return Self.ok(JSONObject([("deleted", .string(removed.id))]))
        } catch {
            throw ControlFailure(
                error.field == "user" ? ProviderChangeError(error.kind, field: "id", error.message) : error)
        }
    }
}

extension ControlEndpoints {
    /// The `tamper:` rule that fires for a native credential of `clientID` for `user` (any spelling
    /// the scenario resolves: id, email, sub), if any.
    package func tamperingRule(forCredentialOf clientID: String, user: String) -> (ruleID: String, tamper: TamperCase)?
    {
        faults?.tampering(
            .nativeCredential, clientID: clientID, user: provider.scenario.user(matching: user)?.user.id,
            nowMilliseconds: provider.clock.nowMilliseconds)
    }
}
