import ScenarioModel

extension UserEvent {
    /// Why this event notified nobody (for the log): Apple notifies only the app groups the user signed in
    /// to, so a change before any sign-in, or to groups without an endpoint, is silent — and a tester
    /// waiting for the notification should be told why.
    package func nobodyNotifiedReason(in scenario: Scenario) -> String {
        let what = "no \(kind.typeName(scenario.settings.notifications)) notification for \(user.id)"
        guard !appGroupIDs.isEmpty else {
            return "\(what): the user has not signed in to any app group yet (Apple notifies only the groups "
                + "a user authorized; sign in first, or send one with POST /mock/notifications)"
        }
        return "\(what): app group \(appGroupIDs.joined(separator: ", ")) has no notification_url "
            + "(PATCH /mock/app-groups/{id} sets one)"
    }
}
