import HTTP
import JSON
import SIWACore

/// App groups (notification endpoints) and notification switches.
extension ControlEndpoints {
    func listAppGroups() -> HTTPResponse {
        let groups = provider.scenario.appGroups.map { group in
            JSONValue.object(
                JSONObject([
                    ("id", .string(group.id)), ("primary_app_id", .string(group.primaryAppID)),
                    ("client_ids", .array(group.clientIDs.map { .string($0) })),
                    ("notification_url", group.notificationURL.map { .string($0) } ?? .null),
                ]))
        }
        return Self.ok(JSONObject([("app_groups", .array(groups))]))
    }

    /// `PATCH /mock/app-groups/{id} {notification_url: "http://…" | null}`.
    func patchAppGroup(_ id: String, _ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let body = try context.json(required: true)
        try body.allowOnly(["notification_url"])
        guard let value = body.object["notification_url"] else {
            throw .invalid("notification_url", "is required (null removes it)")
        }
        let url = value.isNull ? nil : try body.string("notification_url")
        do throws(ProviderChangeError) {
            try provider.setNotificationURL(url, forAppGroup: id)
        } catch {
            throw ControlFailure(error)
        }
        return listAppGroups()
    }

    func notificationSettings() -> HTTPResponse {
        let settings = provider.scenario.settings.notifications
        return Self.ok(
            JSONObject([
                ("events_as_string", .bool(settings.eventsAsString)),
                ("event_time_ms", .bool(settings.eventTimeInMilliseconds)),
                ("account_deletion_type", .string(settings.accountDeletionType)),
                ("send_on_user_changes", .bool(settings.sendOnUserChanges)),
                ("max_attempts", .int(Int64(settings.maxAttempts))),
                ("deliveries_per_event", .int(Int64(settings.deliveriesPerEvent))),
                ("retry_delay_ms", .int(settings.retryDelayMilliseconds)),
                ("timeout_ms", .int(Int64(settings.timeoutMilliseconds))),
            ]))
    }

    /// `PATCH /mock/notifications/settings`: any subset of the switches.
    func patchNotificationSettings(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let body = try context.json(required: true)
        try body.allowOnly([
            "events_as_string", "event_time_ms", "account_deletion_type", "send_on_user_changes", "max_attempts",
            "retry_delay_ms", "timeout_ms", "deliveries_per_event",
        ])
        var settings = provider.scenario.settings.notifications
        if let value = try body.bool("events_as_string") { settings.eventsAsString = value }
        if let value = try body.bool("event_time_ms") { settings.eventTimeInMilliseconds = value }
        if let value = try body.string("account_deletion_type") { settings.accountDeletionType = value }
        if let value = try body.bool("send_on_user_changes") { settings.sendOnUserChanges = value }
        if let value = try body.integer("max_attempts") {
            guard (1...20).contains(value) else { throw .invalid("max_attempts", "must be from 1 to 20") }
            settings.maxAttempts = Int(value)
        }
        if let value = try body.integer("deliveries_per_event") {
            guard (1...10).contains(value) else { throw .invalid("deliveries_per_event", "must be from 1 to 10") }
            settings.deliveriesPerEvent = Int(value)
        }
        if let value = try body.integer("retry_delay_ms") { settings.retryDelayMilliseconds = value }
        if let value = try body.integer("timeout_ms") {
            guard (1...120_000).contains(value) else { throw .invalid("timeout_ms", "must be from 1 to 120000") }
            settings.timeoutMilliseconds = Int(value)
        }
        do throws(ProviderChangeError) {
            try provider.setNotificationSettings(settings)
        } catch {
            throw ControlFailure(error)
        }
        return notificationSettings()
    }
}
