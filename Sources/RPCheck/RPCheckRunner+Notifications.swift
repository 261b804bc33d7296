import HTTP
import JSON
import ScenarioModel

extension RPCheckRunner {
    /// The notification surface: the app group's endpoint is pointed at the backend, then per case the
    /// mock sends a `consent-revoked` notification (tampered by a one-shot rule) and `rp-check` reads the
    /// status of its first delivery attempt: a 2xx is "accepted" (Apple retries anything else).
    func runNotifications(_ target: NotificationTarget) throws(RPCheckError) -> [RPCheckResult] {
        _ = try mock.call(
            "PATCH", "/mock/app-groups/\(URLEncodedForm.encodeComponent(target.appGroup))",
            .object(JSONObject([("notification_url", .string(target.url))])), send: send)
        return try surface(
            "notifications", .notification,
            controlRisk: "a correct notification must be answered 2xx, or no refusal below means anything",
            controlFix: "check the notification endpoint's key and audience settings"
        ) { tamper throws(RPCheckError) in try notificationVerdict(tamper) }
    }

    /// How long to wait for the mock's first delivery attempt.
    static let deliveryWaitMilliseconds = 15_000

    func notificationVerdict(_ tamper: TamperCase?) throws(RPCheckError) -> (verdict: RPCheckVerdict, detail: String) {
        let queued = try mock.withTampering(tamper?.name, send: send) { () throws(RPCheckError) in
            try mock.call(
                "POST", "/mock/notifications",
                .object(JSONObject([("type", "consent-revoked"), ("user", .string(user)), ("deliveries", 1)])),
                send: send)
        }
        guard let id = queued["queued"]?[0]?["id"]?.intValue else {
            throw RPCheckError("the mock queued no notification: \(queued.serializedString())")
        }
        var waited = 0
        while waited < Self.deliveryWaitMilliseconds {
            let list = try mock.call("GET", "/mock/notifications", send: send)
            let record = list["notifications"]?.arrayValue?.first { $0["id"]?.intValue == id }
            if let attempt = record?["attempts"]?[0] {
                guard let status = attempt["status"]?.intValue else {
                    let outcome = attempt["outcome"]?.stringValue ?? "no answer"
                    return (.error("delivery failed: \(outcome)"), outcome)
                }
                return ((200..<300).contains(Int(status)) ? .accepted : .rejected, "HTTP \(status)")
            }
            Self.pause(milliseconds: 50)
            waited += 50
        }
        return (.error("the mock made no delivery attempt in \(Self.deliveryWaitMilliseconds) ms"), "no attempt")
    }
}
