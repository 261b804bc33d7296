import JSON
import ScenarioModel

/// One user as the fleet shares it after a runtime change through the control API: the whole profile
/// (absolute, so replaying it changes nothing), or its deletion.
package struct FleetUserState: Sendable, Equatable {
    package var id: String
    /// nil: the account was deleted.
    package var profile: UserProfile?

    package init(id: String, profile: UserProfile?) {
        self.id = id
        self.profile = profile
    }

    /// The profile's JSON; "" for a deletion.
    package var text: String {
        guard let user = profile else { return "" }
        var object = JSONObject([
            ("id", .string(user.id)), ("sub", .string(user.sub)), ("email", .string(user.email)),
            ("email_verified", .bool(user.emailVerified)), ("private_email", .bool(user.privateEmail)),
            ("private_email_claim", .bool(user.sendsPrivateEmailClaim)),
            ("first_name", .string(user.name.firstName)), ("last_name", .string(user.name.lastName)),
            ("real_user_status", .int(Int64(user.realUserStatus.rawValue))),
            ("real_user_status_always", .bool(user.realUserStatusAlways)),
            ("credential_state", .int(Int64(user.credentialState.rawValue))),
            ("email_forwarding", .bool(user.emailForwardingEnabled)),
            (
                "team_subs",
                .object(JSONObject(user.teamSubs.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
            ),
            (
                "keychain",
                .array(
                    user.keychain.map {
                        .object(
                            JSONObject([
                                ("domain", .string($0.domain)), ("user", .string($0.user)),
                                ("password", .string($0.password)),
                            ]))
                    })
            ),
        ])
        if let relay = user.relayEmail { object["relay_email"] = .string(relay) }
        if let transfer = user.transferSub { object["transfer_sub"] = .string(transfer) }
        if let scopes = user.consentedScopes {
            object["consented_scopes"] = .array(scopes.map { .string($0.rawValue) })
        }
        return JSONValue.object(object).serializedString()
    }

    /// nil when `text` is not a user state (damage, or a newer replica's format): it is then skipped.
    package init?(id: String, text: String) {
        guard !text.isEmpty else {
            self.init(id: id, profile: nil)
            return
        }
        guard let value = try? JSONValue.parse(text), value["id"]?.stringValue == id,
            let sub = value["sub"]?.stringValue, let email = value["email"]?.stringValue,
            let verified = value["email_verified"]?.boolValue, let isPrivate = value["private_email"]?.boolValue,
            let status = value["real_user_status"]?.intValue.flatMap({ RealUserStatus(rawValue: Int($0)) }),
            let state = value["credential_state"]?.intValue.flatMap({ CredentialState(rawValue: Int($0)) }),
            let forwarding = value["email_forwarding"]?.boolValue, let teams = value["team_subs"]?.objectValue,
            let keychain = value["keychain"]?.arrayValue
        else { return nil }
        var user = UserProfile(
            id: id, sub: sub, email: email, emailVerified: verified, privateEmail: isPrivate,
            relayEmail: value["relay_email"]?.stringValue,
            name: PersonName(
                firstName: value["first_name"]?.stringValue ?? "", lastName: value["last_name"]?.stringValue ?? ""),
            realUserStatus: status, credentialState: state, transferSub: value["transfer_sub"]?.stringValue,
            emailForwardingEnabled: forwarding,
            teamSubs: Dictionary(
                uniqueKeysWithValues: teams.pairs.compactMap { pair in pair.value.stringValue.map { (pair.key, $0) } }))
        user.sendsPrivateEmailClaim = value["private_email_claim"]?.boolValue ?? true
        user.realUserStatusAlways = value["real_user_status_always"]?.boolValue ?? false
        user.consentedScopes = value["consented_scopes"]?.arrayValue?.compactMap {
            $0.stringValue.flatMap(Scope.init(rawValue:))
        }
        user.keychain = keychain.compactMap { entry in
            guard let domain = entry["domain"]?.stringValue, let name = entry["user"]?.stringValue,
                let password = entry["password"]?.stringValue
            else { return nil }
            return SavedPassword(domain: domain, user: name, password: password)
        }
        self.init(id: id, profile: user)
    }
}

extension AppleIdentityProvider {
    /// Makes a user what another replica's control API made them: replaced, added or removed, through
    /// the same user-change core as `updateUser`/`addUser`/`deleteAccount`, but without their effects on
    /// grants (that replica already ended them in the shared store) and without events (it notified).
    package func applyFleetUser(_ state: FleetUserState) throws(ProviderChangeError) {
        try changeUsers { (scenario, users) throws(ProviderChangeError) in
            let index = users.positions[state.id]
            switch (index, state.profile) {
            case (nil, nil):
                return
            case (let index?, nil):
                let (found, compacted) = scenario.users.remove(at: index)
                if compacted { users = UserIndex(scenario) } else { users.remove(found, in: scenario) }
            case (let index?, let user?):
                let found = scenario.users[index]
                if found == user { return }
                if found.sub != user.sub || found.teamSubs != user.teamSubs {
                    throw ProviderChangeError(.conflict, field: "sub", "user '\(state.id)' has another sub here")
                }
                try user.checkSize()
                try Self.check(Scenario.problems(ofUser: user, at: index))
                scenario.users[index] = user
                users.replace(found, with: user, in: scenario)
            case (nil, let user?):
                try user.checkSize()
                if scenario.users.count >= UserProfile.maximumCount || users.containsSub(user.sub) {
                    throw ProviderChangeError(.conflict, field: "id", "user '\(state.id)' cannot be added here")
                }
                try Self.check(Scenario.problems(ofUser: user, at: scenario.users.count))
                users.insert(user, at: scenario.users.append(user), in: scenario)
            }
        }
    }
}
