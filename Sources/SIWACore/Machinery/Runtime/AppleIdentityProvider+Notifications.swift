/// Runtime changes of where and how server-to-server notifications are sent.
import ScenarioModel

extension AppleIdentityProvider {
    /// Registers (or, with nil, removes) the notification endpoint of an app group.
    /// - Throws: `.notFound` for an unknown group, `.invalid` for a URL that is not absolute http(s).
    package func setNotificationURL(_ url: String?, forAppGroup groupID: String) throws(ProviderChangeError) {
        if let url, url.utf8.count > ParameterLimits.maximumBytes(for: "redirect_uri") {
            throw ProviderChangeError(
                .invalid, field: "notification_url",
                "longer than \(ParameterLimits.maximumBytes(for: "redirect_uri")) bytes")
        }
        if let url, !Scenario.isAbsoluteHTTPURL(url) {
            throw ProviderChangeError(.invalid, field: "notification_url", "'\(url)' is not an absolute http(s) URL")
        }
        try change { (scenario, _) throws(ProviderChangeError) in
            guard let index = scenario.appGroups.firstIndex(where: { $0.id == groupID }) else {
                throw ProviderChangeError(.notFound, field: "id", "unknown app group '\(groupID)'")
            }
            scenario.appGroups[index].notificationURL = url
        }
    }

    /// Replaces the notification switches (shape, event name, retries).
    package func setNotificationSettings(_ settings: NotificationSettings) throws(ProviderChangeError) {
        if settings.maxAttempts < 1 || settings.maxAttempts > 20 {
            throw ProviderChangeError(.invalid, field: "max_attempts", "must be from 1 to 20")
        }
        if settings.deliveriesPerEvent < 1 || settings.deliveriesPerEvent > 10 {
            throw ProviderChangeError(.invalid, field: "deliveries_per_event", "must be from 1 to 10")
        }
        if settings.retryDelayMilliseconds < 0 || settings.retryDelayMilliseconds > 600_000 {
            throw ProviderChangeError(.invalid, field: "retry_delay_ms", "must be from 0 to 600000")
        }
        if settings.timeoutMilliseconds < 1 || settings.timeoutMilliseconds > 120_000 {
            throw ProviderChangeError(.invalid, field: "timeout_ms", "must be from 1 to 120000")
        }
        if !["account-delete", "account-deleted"].contains(settings.accountDeletionType) {
            throw ProviderChangeError(
                .invalid, field: "account_deletion_type", "must be account-delete or account-deleted")
        }
        try change { (scenario, _) throws(ProviderChangeError) in scenario.settings.notifications = settings }
    }
}
