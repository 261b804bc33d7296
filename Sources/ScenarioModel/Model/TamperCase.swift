/// One way a hostile Apple breaks a token it hands out (docs/rp-check.md): a fault rule's `tamper:` names
/// one, and the matching answer's id_token — or the notification — is that case instead of a valid one.
/// Names are the OpenID Foundation conformance suite's relying-party test ids where one exists
/// (https://openid.net/certification/connect_rp_testing/), else `siwa-…`.
package enum TamperCase: String, Sendable, Equatable, CaseIterable {
    // id_token: signature and key selection
    case invalidSignature = "oidcc-client-test-invalid-sig-rs256"
    case algorithmNone = "oidcc-client-test-idtoken-sig-none"
    case hmacWithPublicKey = "oidcc-client-test-invalid-sig-hs256"
    case unknownKeyID = "siwa-kid-unknown"
    case keyIDAbsentMultipleKeys = "oidcc-client-test-kid-absent-multiple-jwks"
    case retiredKey = "siwa-signed-by-retired-key"
    // id_token: claims
    case invalidIssuer = "oidcc-client-test-invalid-iss"
    case issuerHTTP = "siwa-iss-http"
    case issuerTrailingSlash = "siwa-iss-trailing-slash"
    case audienceSameTeam = "siwa-aud-other-client-same-team"
    case audienceOtherTeam = "oidcc-client-test-invalid-aud"
    case expired = "siwa-expired"
    case issuedInFuture = "siwa-iat-in-future"
    case missingIssuedAt = "oidcc-client-test-missing-iat"
    case missingSubject = "oidcc-client-test-missing-sub"
    case nonceChanged = "oidcc-client-test-nonce-invalid"
    case hashChanged = "siwa-c-hash-at-hash-invalid"
    case emailVerifiedFalseString = "siwa-email-verified-false-string"
    case privateEmailFalseString = "siwa-is-private-email-false-string"
    // server-to-server notifications
    case notificationInvalidSignature = "siwa-notification-invalid-sig"
    case notificationInvalidAudience = "siwa-notification-invalid-aud"
    case notificationReplayedJTI = "siwa-notification-replayed-jti"
    case notificationStaleEventTime = "siwa-notification-stale-event-time"

    /// What a case breaks: an id_token (token endpoint, hybrid authorize, native credential) or a
    /// server-to-server notification.
    package enum Target: String, Sendable {
        case idToken = "id_token"
        case notification
    }

    package var target: Target {
        switch self {
        case .notificationInvalidSignature, .notificationInvalidAudience, .notificationReplayedJTI,
            .notificationStaleEventTime:
            .notification
        default: .idToken
        }
    }

    /// The scenario-file and control-API spelling.
    package var name: String { rawValue }

    /// Cases of one target, in catalogue order.
    package static func cases(for target: Target) -> [TamperCase] { allCases.filter { $0.target == target } }
}
