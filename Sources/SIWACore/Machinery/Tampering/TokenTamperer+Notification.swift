import JOSE
import JSON
import ScenarioModel

extension TokenTamperer {
    /// How far `siwa-notification-stale-event-time` moves `event_time` back: 30 days, far outside any
    /// delivery delay (Apple retries for a limited time; docs/notifications.md).
    static let staleEventSeconds: Int64 = 30 * 86400

    /// The notification `notification` with its payload broken as `tamper` says; `replayedJTI` is the
    /// `jti` of an earlier notification (`siwa-notification-replayed-jti`; nil: its own, so the same
    /// event is posted again as a new one).
    /// - Throws: `JOSEError` when signing failed; `.unsupportedAlgorithm` for an id_token case.
    package func notification(
        _ notification: PreparedNotification, as tamper: TamperCase, replayedJTI: String? = nil
    ) throws(JOSEError) -> PreparedNotification {
        let jws = try JWS(compact: notification.payload)
        var claims = jws.payload
        var tampered = notification
        switch tamper {
        case .notificationInvalidSignature:
            tampered.payload = Self.flippingSignature(of: jws)
            return tampered
        case .notificationInvalidAudience:
            let audience = otherAudience(than: claims["aud"], sameTeam: false)
            claims["aud"] = .string(audience)
            tampered.audience = audience
        case .notificationReplayedJTI:
            let jti = replayedJTI ?? notification.jti
            claims["jti"] = .string(jti)
            tampered.jti = jti
        case .notificationStaleEventTime:
            claims["events"] = Self.movingEventTime(claims["events"], back: Self.staleEventSeconds)
        default:
            throw JOSEError(.unsupportedAlgorithm, "\(tamper.name) is an id_token case, not a notification case")
        }
        tampered.payload = try JWS.sign(header: jws.header, payload: claims, with: keys.signingKey)
        return tampered
    }

    /// `events` (an object, or its JSON text as Apple sometimes sends it) with `event_time` moved back
    /// by `seconds`, in its own unit (milliseconds when it is above 10^11).
    static func movingEventTime(_ events: JSONValue?, back seconds: Int64) -> JSONValue? {
        var asText = false
        var object: JSONObject?
        switch events {
        case .object(let value)?: object = value
        case .string(let text)?:
            asText = true
            object = (try? JSONValue.parse(text))?.objectValue
        default: return events
        }
        guard var details = object, let time = details["event_time"]?.intValue else { return events }
        details["event_time"] = .int(time - (time > 100_000_000_000 ? seconds * 1000 : seconds))
        return asText ? .string(JSONValue.object(details).serializedString()) : .object(details)
    }
}
