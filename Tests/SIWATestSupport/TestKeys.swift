import SIWACore
import ScenarioModel

/// Key material for tests. The P-256 key is the built-in scenario's published TEST client-secret key
/// (scenarios/keys/AuthKey_KEY1234567.p8), registered for team ABCDE12345 under kid KEY1234567.
package enum TestKeys {
    package static let clientSecretKID = "KEY1234567"
    package static let teamID = "ABCDE12345"
    package static let webClientID = "com.example.web"
    package static let nativeClientID = "com.example.app"
    package static let redirectURI = "https://app.example.com/auth/apple/callback"

    package static let clientSecretPrivateKeyPEM = Scenario.BuiltInKeys.clientSecretPrivateKeyKEY1234567
}
