import SIWACore

/// Key material for tests. The P-256 key is the built-in scenario's published TEST client-secret key
/// (scenarios/keys/AuthKey_KEY1234567.p8), registered for team ABCDE12345 under kid KEY1234567.
public enum TestKeys {
    public static let clientSecretKID = "KEY1234567"
    public static let teamID = "ABCDE12345"
    public static let webClientID = "com.example.web"
    public static let nativeClientID = "com.example.app"
    public static let redirectURI = "https://app.example.com/auth/apple/callback"

    public static let clientSecretPrivateKeyPEM = Scenario.BuiltInKeys.clientSecretPrivateKeyKEY1234567
}
