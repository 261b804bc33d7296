import JOSE
import JSON

/// `siwa-mock client-secret`: the ES256 JWT a backend sends as `client_secret`
/// (https://developer.apple.com/documentation/accountorganizationaldatasharing/creating-a-client-secret).
struct ClientSecretCommand: Command {
    static let name = "client-secret"
    static let abstract = "Print an ES256 client secret for /auth/token (works against the mock and Apple)."
    static let discussion: String? = """
        EXAMPLE:
          siwa-mock client-secret --team-id ABCDE12345 --client-id com.example.web \\
            --key-id KEY1234567 --key scenarios/keys/AuthKey_KEY1234567.p8
        """
    /// Apple refuses secrets whose `exp` is more than 15777000 s (about six months) ahead.
    static let maximumLifetime = 15_777_000
    static let options: [OptionSpec] = [
        .value("team-id", "team-id", help: "Your 10-character Team ID (the `iss` claim).", required: true),
        .value("client-id", "client-id", help: "The bundle ID or Services ID (the `sub` claim).", required: true),
        .value("key-id", "key-id", help: "The 10-character key ID (the `kid` header).", required: true),
        .value("key", "file", help: "The P-256 private key (.p8) to sign with.", required: true),
        .value(
            "expires-in", "seconds", help: "Lifetime in seconds, at most \(maximumLifetime).",
            default: "15552000 (180 days)"),
    ]

    var teamID: String
    var clientID: String
    var keyID: String
    var keyPath: String
    var expiresIn: Int

    init(_ arguments: ParsedArguments) throws(UsageError) {
        teamID = try arguments.required("team-id")
        clientID = try arguments.required("client-id")
        keyID = try arguments.required("key-id")
        keyPath = try arguments.required("key")
        expiresIn = try arguments.integer("expires-in", in: 1...Self.maximumLifetime) ?? 15_552_000
    }

    func run() throws -> Int32 {
        let pem = try FileSystem.readText(keyPath, limit: 64 * 1024)
        let key: P256PrivateKey
        do {
            key = try P256PrivateKey(pem: pem)
        } catch {
            throw RuntimeError("\(keyPath): \(error.message)")
        }
        let now = WallClock.now()
        let header: JSONObject = JSONObject([("alg", .string("ES256")), ("kid", .string(keyID))])
        let claims = JSONObject([
            ("iss", .string(teamID)), ("iat", .int(now)), ("exp", .int(now + Int64(expiresIn))),
            ("aud", .string("https://appleid.apple.com")), ("sub", .string(clientID)),
        ])
        Console().out(try JWS.sign(header: header, payload: claims, with: key))
        return 0
    }
}
