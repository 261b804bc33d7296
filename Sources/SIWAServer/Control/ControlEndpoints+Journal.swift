import HTTPServer
import JSON
import SIWACore

/// The request journal and server-to-server notifications.
extension ControlEndpoints {
    /// `GET /mock/requests?path=…&client_id=…&user=…&include=mock` (user: scenario id; a sub or email is
    /// resolved). The mock's own `/mock/` calls are left out unless `include=mock` or a `/mock/` path
    /// filter asks for them: a tester reading the journal wants the backend's traffic, not their own polls.
    func listRequests(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let query = try context.query()
        var user = query["user"]
        if let name = user, let resolved = provider.user(named: name) { user = resolved.id }
        let includeControl: Bool
        switch query["include"] {
        case nil: includeControl = query["path"]?.hasPrefix("/mock/") == true
        case "mock": includeControl = true
        case let other?: throw .invalid("include", "unknown value '\(other)' (use include=mock)")
        }
        let entries = journal.entries(path: query["path"], clientID: query["client_id"], user: user).filter {
            includeControl || !$0.path.hasPrefix("/mock/")
        }
        return Self.ok(JSONObject([("requests", .array(entries.map(\.json)))]))
    }

    func clearRequests() -> HTTPResponse {
        Self.ok(JSONObject([("cleared", .int(Int64(journal.clear())))]))
    }

    func listNotifications() -> HTTPResponse {
        Self.ok(JSONObject([("notifications", .array(notifications.records.map(\.json)))]))
    }

    /// `POST /mock/notifications {type, user, client_id?, deliveries?}` → 202 with the queued
    /// notifications (`deliveries` copies of each, default the `deliveries_per_event` setting).
    func sendNotification(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let body = try context.json()
        try body.allowOnly(["type", "user", "client_id", "deliveries"])
        let typeName = try body.requiredString("type")
        guard let kind = UserEvent.Kind(typeName: typeName) else {
            throw .invalid(
                "type", "must be email-disabled, email-enabled, consent-revoked, account-delete or account-deleted")
        }
        let user = try body.requiredString("user")
        let clientID = try body.string("client_id")
        let copies = try body.integer("deliveries")
        if let copies, !(1...10).contains(copies) { throw .invalid("deliveries", "must be from 1 to 10") }
        let prepared: [PreparedNotification]
        do throws(ProviderChangeError) {
            prepared = try provider.prepareNotifications(kind: kind, user: user, clientID: clientID)
        } catch {
            throw ControlFailure(error)
        }
        let ids = notifications.send(prepared, copies: copies.map(Int.init))
        let perNotification = ids.count / max(prepared.count, 1)
        let queued = ids.enumerated().map { index, id in
            let notification = prepared[index / max(perNotification, 1)]
            return
                JSONValue.object(
                    JSONObject([
                        ("id", .int(Int64(id))), ("type", .string(notification.type)),
                        ("jti", .string(notification.jti)),
                        ("url", .string(notification.url)), ("aud", .string(notification.audience)),
                    ]))
        }
        return Self.ok(JSONObject([("queued", .array(queued))]), status: .accepted)
    }
}
