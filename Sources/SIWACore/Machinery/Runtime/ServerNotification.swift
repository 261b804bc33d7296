import JOSE
import JSON
import ScenarioModel

/// A server-to-server notification ready to POST (docs/notifications.md): where, and the exact body.
package struct PreparedNotification: Sendable, Equatable {
    /// The app group's registered endpoint.
    package var url: String
    package var appGroupID: String
    /// `aud`: the group's primary App ID.
    package var audience: String
    package var jti: String
    /// The wire event type (`consent-revoked`, `account-deleted`, …).
    package var type: String
    /// Scenario id of the user concerned.
    package var userID: String
    /// The signed JWS.
    package var payload: String
    /// The hostile-Apple case it was made (a firing `tamper:` fault rule; docs/rp-check.md); nil: valid.
    package var tamper: TamperCase? = nil

    package init(
        url: String, appGroupID: String, audience: String, jti: String, type: String, userID: String,
        payload: String
    ) {
        self.url = url
        self.appGroupID = appGroupID
        self.audience = audience
        self.jti = jti
        self.type = type
        self.userID = userID
        self.payload = payload
    }

    /// `{"payload":"<JWS>"}`.
    package var body: [UInt8] { JSONValue.object(JSONObject([("payload", .string(payload))])).serialized() }
}

extension AppleIdentityProvider {
    /// Notifications for a control call: `clientID`'s group, or (without one) every group the user
    /// authorized that has an endpoint, else every group with an endpoint.
    /// - Throws: `.notFound` for an unknown user or client, `.invalid` when no group has an endpoint.
    package func prepareNotifications(
        kind: UserEvent.Kind, user name: String, clientID: String?
    ) throws(ProviderChangeError) -> [PreparedNotification] {
        let scenario = self.scenario
        guard let user = scenario.user(matching: name)?.user else {
            throw .unknownUser(name, among: scenario.users.map(\.id))
        }
        var groups: [String]
        if let clientID {
            guard scenario.client(id: clientID) != nil else {
                throw .unknownClient(clientID, among: scenario.clients.map(\.id))
            }
            let group = scenario.consentGroupID(forClient: clientID)
            guard scenario.appGroups.first(where: { $0.id == group })?.notificationURL != nil else {
                throw ProviderChangeError(
                    .conflict, field: "client_id", "app group '\(group)' has no notification endpoint")
            }
            groups = [group]
        } else {
            let withURL = scenario.appGroups.filter { $0.notificationURL != nil }.map(\.id)
            let used = try ProviderChangeError.storing { () throws(StoreUnavailable) in
                try store.consentGroupIDs(userID: user.id, includingRevoked: true)
            }.filter(withURL.contains)
            groups = used.isEmpty ? withURL : used
            guard !groups.isEmpty else {
                throw ProviderChangeError(.conflict, field: "client_id", "no app group has a notification endpoint")
            }
        }
        return try prepareNotifications(
            for: UserEvent(kind: kind, user: user, appGroupIDs: groups, timeMilliseconds: clock.nowMilliseconds))
    }

    /// One signed notification per group of `event` that has an endpoint (others are skipped).
    package func prepareNotifications(for event: UserEvent) throws(ProviderChangeError) -> [PreparedNotification] {
        let snapshot = self.snapshot
        let scenario = snapshot.scenario
        let settings = scenario.settings.notifications
        var out: [PreparedNotification] = []
        for groupID in event.appGroupIDs {
            guard let group = scenario.appGroups.first(where: { $0.id == groupID }), let url = group.notificationURL
            else { continue }
            let view = scenario.view(of: event.user, forClient: group.primaryAppID, now: event.timeMilliseconds / 1000)
            var details = JSONObject()
            details["type"] = .string(event.kind.typeName(settings))
            details["sub"] = .string(view.sub)
            if event.kind == .emailDisabled || event.kind == .emailEnabled {
                details["email"] = .string(view.deliveredEmail)
                details["is_private_email"] = .string(view.isDeliveredEmailPrivate ? "true" : "false")
            }
            details["event_time"] = .int(
                settings.eventTimeInMilliseconds ? event.timeMilliseconds : event.timeMilliseconds / 1000)
            let now = clock.nowSeconds
            let jti = snapshot.identifiers.makeUniqueID()
            var claims = JSONObject()
            claims["iss"] = .string(scenario.settings.issuer)
            claims["aud"] = .string(group.primaryAppID)
            // Apple's order, `iss, aud, exp, iat, jti, events` (docs/fidelity.md#server-to-server-notifications).
            claims["exp"] = .int(now + 86400)
            claims["iat"] = .int(now)
            claims["jti"] = .string(jti)
            claims["events"] =
                settings.eventsAsString ? .string(JSONValue.object(details).serializedString()) : .object(details)
            let header = JSONObject([("kid", .string(snapshot.keys.signingKID)), ("alg", .string("RS256"))])
            let payload: String
            do {
                payload = try JWS.sign(header: header, payload: claims, with: snapshot.keys.signingKey)
            } catch {
                throw ProviderChangeError(.invalid, field: nil, "notification signing failed: \(error.message)")
            }
            out.append(
                PreparedNotification(
                    url: url, appGroupID: groupID, audience: group.primaryAppID, jti: jti,
                    type: event.kind.typeName(settings), userID: event.user.id, payload: payload))
        }
        return out
    }
}
