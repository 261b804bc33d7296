import SIWACore
import ScenarioModel

extension NotificationDispatcher {
    /// `notification`, or the case a firing `tamper:` fault rule asks for (docs/rp-check.md): a replayed
    /// `jti` reuses the latest earlier notification's. A notification that cannot be re-signed is sent
    /// as it was, and the journal says why.
    func tampering(_ notification: PreparedNotification) -> PreparedNotification {
        guard
            let (ruleID, tamper) = faults?.tampering(
                .notification, clientID: notification.audience, user: notification.userID,
                nowMilliseconds: provider.clock.nowMilliseconds)
        else { return notification }
        let earlier = records.last?.notification.jti
        do {
            var tampered = try provider.snapshot.tamperer.notification(
                notification, as: tamper, replayedJTI: earlier)
            tampered.tamper = tamper
            return tampered
        } catch {
            journal.append(
                JournalEntry(
                    kind: "notification", method: "POST", path: notification.url,
                    parameters: [("type", notification.type), ("jti", notification.jti)],
                    clientID: notification.audience, user: notification.userID, outcome: "tamper_failed", status: 0,
                    timeMilliseconds: provider.clock.nowMilliseconds,
                    reason: "fault \(ruleID) could not make \(tamper.name): \(error.message)"))
            return notification
        }
    }
}
