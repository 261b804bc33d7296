// The built-in scenario's key material: the files embedded with `scenarios/default.yaml`
// (scenarios/keys/). These are published TEST keys; never trust them for anything real.

extension Scenario {
    /// Test-only keys shipped with the built-in scenario (one copy: `ScenarioLoader.defaultScenarioFiles`).
    package enum BuiltInKeys {
        /// PKCS#8 PEM of RS256 signing key `Aj3F8kLq2X` (signs id_tokens).
        package static var signingKeyAj3F8kLq2X: String { embedded("keys/signing-Aj3F8kLq2X.pem") }
        /// PKCS#8 PEM of RS256 signing key `Pb7Yt1ZcQ9` (published, does not sign).
        package static var signingKeyPb7Yt1ZcQ9: String { embedded("keys/signing-Pb7Yt1ZcQ9.pem") }
        /// PKCS#8 PEM of RS256 signing key `Tq8Nv3WcLm` (published, does not sign).
        package static var signingKeyTq8Nv3WcLm: String { embedded("keys/signing-Tq8Nv3WcLm.pem") }
        /// SubjectPublicKeyInfo PEM of the client-secret key `KEY1234567` registered for team ABCDE12345.
        package static var clientSecretPublicKeyKEY1234567: String { embedded("keys/AuthKey_KEY1234567.pub.pem") }

        /// PKCS#8 PEM of the client-secret key `KEY1234567` (scenarios/keys/AuthKey_KEY1234567.p8): the
        /// private half is published so tests can sign client secrets the built-in scenario accepts.
        package static let clientSecretPrivateKeyKEY1234567 = """
            -----BEGIN PRIVATE KEY-----
            MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg4M8Vx2ZLwzS8EfTZ
            k/+nRb7w41p6faTHFjVmguKFW9WhRANCAATg9y3/GsPig1WDeOnnjwAiWPQntlsV
            vXzHZV/aUp6q8ZGKIcJTPrJVX11hzAzy4J3f3W0f+WIV/RzMcXZ9F2Rs
            -----END PRIVATE KEY-----
            """

        private static func embedded(_ name: String) -> String {
            guard let text = ScenarioLoader.defaultScenarioFiles[name] else {
                fatalError("scenarios/embed-default.sh did not embed \(name)")
            }
            return text
        }
    }
}
