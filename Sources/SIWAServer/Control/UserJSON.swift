import JSON
import SIWACore
import ScenarioModel

/// Users as the control API reads and writes them (snake_case fields, enum names as strings).
enum UserJSON {
    static func render(_ user: UserProfile, provider: AppleIdentityProvider) -> JSONValue {
        // Built from one list of pairs (sized once): `GET /mock/users` renders up to 100,000 of these.
        let perClient = provider.credentialStates(of: user).map { ($0.clientID, JSONValue.string(name(of: $0.state))) }
        return .object(
            JSONObject([
                ("id", .string(user.id)), ("sub", .string(user.sub)), ("email", .string(user.email)),
                ("email_verified", .bool(user.emailVerified)), ("private_email", .bool(user.privateEmail)),
                ("relay_email", user.relayEmail.map { .string($0) } ?? .null),
                ("email_forwarding", .bool(user.emailForwardingEnabled)),
                ("first_name", .string(user.name.firstName)), ("last_name", .string(user.name.lastName)),
                ("real_user_status", .string(name(of: user.realUserStatus))),
                ("credential_state", .string(name(of: user.credentialState))),
                (
                    "authorized_app_groups",
                    .array(
                        ((try? provider.store.consentGroupIDs(userID: user.id, includingRevoked: false)) ?? []).map {
                            .string($0)
                        })
                ),
                ("credential_states", .object(JSONObject(perClient))),
            ]))
    }

    static func name(of status: RealUserStatus) -> String {
        switch status {
        case .unsupported: "unsupported"
        case .unknown: "unknown"
        case .likelyReal: "likely_real"
        }
    }

    static func name(of state: CredentialState) -> String {
        switch state {
        case .authorized: "authorized"
        case .revoked: "revoked"
        case .notFound: "not_found"
        case .transferred: "transferred"
        }
    }

    /// `unsupported|unknown|likely_real` or `0|1|2`.
    static func realUserStatus(_ body: JSONBody, _ key: String) throws(ControlFailure) -> RealUserStatus? {
        guard let value = body.object[key] else { return nil }
        if value.stringValue == nil {
            guard let number = try? body.integer(key),
                let status = RealUserStatus(rawValue: Int(truncatingIfNeeded: number))
            else { throw .invalid(key, "must be unsupported, unknown or likely_real (or 0, 1, 2)") }
            return status
        }
        switch value.stringValue {
        case "unsupported": return .unsupported
        case "unknown": return .unknown
        case "likely_real", "likelyReal": return .likelyReal
        default: throw .invalid(key, "must be unsupported, unknown or likely_real (or 0, 1, 2)")
        }
    }

    /// `authorized|revoked|not_found|transferred` (`notFound` accepted).
    static func credentialState(_ body: JSONBody, _ key: String) throws(ControlFailure) -> CredentialState? {
        guard let text = try body.string(key) else { return nil }
        switch text {
        case "authorized": return .authorized
        case "revoked": return .revoked
        case "not_found", "notFound": return .notFound
        case "transferred": return .transferred
        default: throw .invalid(key, "must be authorized, revoked, not_found or transferred")
        }
    }
}
