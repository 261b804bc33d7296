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
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = Array("sha256:".utf8)
        for byte in SHA256.hash(Array(secret.utf8)).prefix(6) {
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value to show for `field`: a fingerprint for secrets (unless it already is one), else the value.
    package static func redact(_ field: String, _ value: String) -> String {
        secretFields.contains(field.lowercased()) && !value.hasPrefix("sha256:") ? of(value) : value
    }
}
