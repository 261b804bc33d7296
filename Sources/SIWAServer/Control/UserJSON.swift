import JSON
import SIWACore

/// Users as the control API reads and writes them (snake_case fields, enum names as strings).
enum UserJSON {
    static func render(_ user: UserProfile, provider: AppleIdentityProvider) -> JSONValue {
        var object = JSONObject()
        object["id"] = .string(user.id)
        object["sub"] = .string(user.sub)
        object["email"] = .string(user.email)
        object["email_verified"] = .bool(user.emailVerified)
        object["private_email"] = .bool(user.privateEmail)
        object["relay_email"] = user.relayEmail.map { .string($0) } ?? .null
        object["email_forwarding"] = .bool(user.emailForwardingEnabled)
        object["first_name"] = .string(user.name.firstName)
        object["last_name"] = .string(user.name.lastName)
        object["real_user_status"] = .string(name(of: user.realUserStatus))
        object["credential_state"] = .string(name(of: user.credentialState))
        object["authorized_app_groups"] = .array(
            ((try? provider.store.consentGroupIDs(userID: user.id, includingRevoked: false)) ?? []).map { .string($0) })
        return .object(object)
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
