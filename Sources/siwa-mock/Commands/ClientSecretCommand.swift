import JOSE
import JSON
import SIWACore
import ScenarioModel

/// `siwa-mock client-secret`: the ES256 JWT a backend sends as `client_secret`
/// (https://developer.apple.com/documentation/accountorganizationaldatasharing/creating-a-client-secret).
struct ClientSecretCommand: Command {
    static let name = "client-secret"
    static let abstract = "Print an ES256 client secret for /auth/token (works against the mock and Apple)."
    static let discussion: String? = """
        EXAMPLE:
          siwa-mock client-secret --team-id ABCDE12345 --client-id com.example.web \\
            --key-id KEY1234567 --key scenarios/keys/AuthKey_KEY1234567.p8

        Without --key it signs with the built-in scenario's published test key (team ABCDE12345, key
        KEY1234567, scenarios/keys/AuthKey_KEY1234567.p8), so `siwa-mock client-secret --client-id
        com.example.web` is accepted by a mock serving the built-in scenario (and never by Apple).
        """
    /// Apple refuses secrets whose `exp` is more than 15777000 s (about six months) ahead.
    static let maximumLifetime = Int(ClientSecretSigner.maximumLifetimeSeconds)
    static let defaultLifetime = 15_552_000
    static let teamID = Option(
        "team-id", "team-id", help: "Your 10-character Team ID (the `iss` claim).", default: "ABCDE12345",
        parser: .nonEmpty)
    static let clientID = Option.optional(
        "client-id", "client-id", help: "The bundle ID or Services ID (the `sub` claim).", required: true,
        parser: .nonEmpty)
    static let keyID = Option(
        "key-id", "key-id", help: "The 10-character key ID (the `kid` header).", default: "KEY1234567",
        parser: .nonEmpty)
    static let key = Option.optional(
        "key", "file", help: "The P-256 private key (.p8) to sign with.", shownDefault: "the published test key",
        parser: .nonEmpty)
    static let expiresIn = Option(
        "expires-in", "seconds", help: "Lifetime in seconds, at most \(maximumLifetime).", default: defaultLifetime,
        shownDefault: "\(defaultLifetime) (\(defaultLifetime / 86_400) days)", parser: .integer(in: 1...maximumLifetime)
    )
    static let options: [OptionSpec] = [teamID.spec, clientID.spec, keyID.spec, key.spec, expiresIn.spec]

    var teamID: String
    var clientID: String
    var keyID: String
    var keyPath: String?
    var expiresIn: Int

    init(_ arguments: ParsedArguments) throws(UsageError) {
        teamID = try arguments.read(Self.teamID)
        clientID = try arguments.read(required: Self.clientID)
        keyID = try arguments.read(Self.keyID)
        keyPath = try arguments.read(Self.key)
        expiresIn = try arguments.read(Self.expiresIn)
    }

    func run() throws -> Int32 {
        let pem =
            try keyPath.map { try FileSystem.readText($0, limit: 64 * 1024, regularOnly: false) }
            ?? Scenario.BuiltInKeys.clientSecretPrivateKeyKEY1234567
        let key: P256PrivateKey
        do {
            key = try P256PrivateKey(pem: pem)
        } catch {
            throw RuntimeError("\(keyPath ?? "the published test key"): \(error.message)")
        }
        let secret = try ClientSecretSigner.sign(
            teamID: teamID, clientID: clientID, keyID: keyID, key: key, issuedAt: WallClock.now(),
            lifetime: Int64(expiresIn))
        Console().out(secret)
        return 0
    }
}
