import JOSE

/// Secrets in logs: never in full, a short fingerprint instead (`sha256:1a2b3c4d`, the first 8 hex
/// digits of SHA-256) — enough to correlate two log lines, useless to replay.
enum SecretFingerprint {
    /// Log field names whose values are secrets.
    static let secretFields: Set<String> = [
        "code", "client_secret", "refresh_token", "access_token", "id_token", "token", "secret", "authorization",
    ]

    static func of(_ secret: String) -> String {
        let digest = SHA256.hash(Array(secret.utf8))
        let hex = digest.prefix(4).map { byte in
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }
        return "sha256:" + hex.joined()
    }
}

extension RequestLog {
    /// The value to log for `field`: a fingerprint for secrets, the value itself otherwise.
    static func redact(_ field: String, _ value: String) -> String {
        SecretFingerprint.secretFields.contains(field.lowercased()) && !value.hasPrefix("sha256:")
            ? SecretFingerprint.of(value) : value
    }
}
