import JOSE

/// The one fingerprint of a secret, used by the request journal and the log: `sha256:` and the first
/// 12 hex digits of SHA-256 over the value — enough to correlate two records, useless to replay.
package enum SecretFingerprint {
    /// Field names whose values are secrets wherever they appear (form fields, log fields).
    package static let secretFields: Set<String> = [
        "code", "client_secret", "refresh_token", "access_token", "id_token", "token", "secret", "authorization",
        "transfer_sub",
    ]

    package static func of(_ secret: String) -> String {
        "sha256:" + Base16.lowercase(SHA256.hash(Array(secret.utf8)).prefix(6))
    }

    /// The value to show for `field`: a fingerprint for secrets (unless it already is one), else the value.
    package static func redact(_ field: String, _ value: String) -> String {
        secretFields.contains(field.lowercased()) && !value.hasPrefix("sha256:") ? of(value) : value
    }
}
