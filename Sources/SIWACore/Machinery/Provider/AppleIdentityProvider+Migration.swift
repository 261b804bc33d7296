import JSON
import ScenarioModel

extension AppleIdentityProvider {
    /// `POST /auth/usermigrationinfo` on decoded form fields and the `Authorization` header
    /// (https://developer.apple.com/documentation/signinwithapple/transferring-your-apps-and-users-to-another-team
    /// and https://developer.apple.com/documentation/technotes/tn3107-resolving-sign-in-with-apple-response-errors).
    ///
    /// - Sender: `sub` + `target` → `{"transfer_sub"}`; allowed before the recipient accepts and up to
    ///   60 days after.
    /// - Recipient: `transfer_sub` → `{"sub","email"?,"is_private_email"?}` for the recipient team;
    ///   only within 60 days of acceptance (afterwards the exchange is switched off).
    /// Both need a live `client_credentials` token (scope `user.migration`) issued to `client_id` as
    /// `Authorization: Bearer`. Duplicated/missing fields, a bad header or token, mismatched client data,
    /// an unknown user or one who revoked the app → `invalid_request`; a bad secret → `invalid_client`.
    package func userMigrationInfo(
        _ form: [(name: String, value: String)], authorization: String?
    ) -> Result<JSONValue, EndpointFailure> {
        do throws(EndpointFailure) {
            return .success(try migrationThrowing(FormFields(form), authorization: authorization))
        } catch {
            return .failure(error)
        }
    }

    private func migrationThrowing(_ form: FormFields, authorization: String?) throws(EndpointFailure) -> JSONValue {
        let clientID = try form.required("client_id")
        let secret = try form.required("client_secret")
        let snapshot = self.snapshot
        let scenario = snapshot.scenario
        do {
            _ = try snapshot.clientSecrets.validate(secret, clientID: clientID)
        } catch {
            throw EndpointFailure(.invalidClient, reason: error.description)
        }
        let now = clock.nowSeconds
        guard let authorization, authorization.hasPrefix("Bearer "), authorization.count > 7 else {
            throw EndpointFailure(.invalidRequest("Missing or invalid Authorization header"))
        }
        let token = String(authorization.dropFirst(7))
        let record = try EndpointFailure.storing { () throws(StoreUnavailable) in
            try snapshot.store.accessToken(token, now: now)
        }
        guard let record, record.scope == "user.migration" else {
            throw EndpointFailure(.invalidRequest("Invalid access token"), reason: "not a live user.migration token")
        }
        guard record.clientID == clientID, let client = scenario.client(id: clientID) else {
            throw EndpointFailure(.invalidRequest("client_id mismatch"), reason: "token issued to \(record.clientID)")
        }
        switch (form["sub"], form["target"], form["transfer_sub"]) {
        case (let sub?, let target?, nil):
            return try transferSub(for: sub, target: target, client: client, scenario: scenario, now: now)
        case (nil, nil, let transferSub?):
            return try recipientIdentity(for: transferSub, client: client, scenario: scenario, now: now)
        default:
            throw EndpointFailure(.invalidRequest("Send either sub and target, or transfer_sub"))
        }
    }

    /// Step B: the sending team asks for a user's transfer identifier.
    private func transferSub(
        for sub: String, target: String, client: Client, scenario: Scenario, now: Int64
    ) throws(EndpointFailure) -> JSONValue {
        guard Scenario.isTeamID(target), target != client.teamID else {
            throw EndpointFailure(.invalidRequest("Invalid target"), reason: "target '\(target)'")
        }
        guard let user = scenario.users.first(where: { scenario.sub(of: $0, inTeam: client.teamID) == sub }) else {
            throw EndpointFailure(
                .invalidRequest("Invalid sub"), reason: "no user with sub '\(sub)' in team \(client.teamID)")
        }
        guard user.credentialState != .revoked else {
            throw EndpointFailure(.invalidRequest("The user has revoked authorization"), reason: "user '\(user.id)'")
        }
        if let transfer = scenario.transfers.first(where: { $0.fromTeamID == client.teamID && $0.toTeamID == target }),
            !transfer.allowsCreatingTransferSubs(now: now)
        {
            throw EndpointFailure(
                .invalidRequest("The transfer window has closed"), reason: "accepted at \(transfer.acceptedAt)")
        }
        let value = scenario.transferSub(of: user, from: client.teamID, to: target)
        return .object(JSONObject([("transfer_sub", .string(value))]))
    }

    /// Step C: the recipient team exchanges a transfer identifier for its own `sub`.
    private func recipientIdentity(
        for transferSub: String, client: Client, scenario: Scenario, now: Int64
    ) throws(EndpointFailure) -> JSONValue {
        let transfers = scenario.transfers.filter { $0.toTeamID == client.teamID }
        guard !transfers.isEmpty else {
            throw EndpointFailure(
                .invalidRequest("Invalid transfer_sub"), reason: "no transfer into team \(client.teamID)")
        }
        for transfer in transfers {
            guard
                let user = scenario.users.first(where: {
                    scenario.transferSub(of: $0, from: transfer.fromTeamID, to: transfer.toTeamID) == transferSub
                })
            else { continue }
            guard transfer.isWithinExchangeWindow(now: now) else {
                throw EndpointFailure(
                    .invalidRequest("The transfer window has closed"),
                    reason: "accepted at \(transfer.acceptedAt), now \(now)")
            }
            guard user.credentialState != .revoked else {
                throw EndpointFailure(
                    .invalidRequest("The user has revoked authorization"), reason: "user '\(user.id)'")
            }
            var object = JSONObject([("sub", .string(scenario.sub(of: user, inTeam: client.teamID)))])
            if user.privateEmail, let relay = scenario.relayEmail(of: user, inTeam: client.teamID) {
                object["email"] = .string(relay)
                object["is_private_email"] = .bool(true)
            }
            return .object(object)
        }
        throw EndpointFailure(.invalidRequest("Invalid transfer_sub"), reason: "unknown transfer_sub")
    }
}
