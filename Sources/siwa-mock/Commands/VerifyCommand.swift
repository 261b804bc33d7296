import HTTP
import JOSE
import JSON
import SIWACore

/// `siwa-mock verify`: checks an id_token the way Apple tells backends to (signature against the JWKS,
/// `iss`, `aud`, `exp`, optionally `nonce`) and prints its header and claims.
struct VerifyCommand: Command {
    static let name = "verify"
    static let abstract = "Verify an id_token against a running mock's /auth/keys and print its claims."
    static let discussion: String? = """
        Checks the RS256 signature with the key named by the token's `kid`, then `iss`, `aud` (when
        --audience is given), `exp`, `iat` and `nonce` (when --nonce is given). `exp` and `iat` are judged by
        the mock's clock (GET /mock/clock), so a token from a mock whose clock was advanced or set is judged
        as that mock's backends would be; when the URL answers no /mock/clock, by this machine's clock.
        The line `clock:` says which. Exit status 0 when valid, 1 otherwise.
        """
    static let audience = Option.optional(
        "audience", "client-id", help: "Expected `aud` (your bundle ID or Services ID).", parser: .nonEmpty)
    static let issuer = Option(
        "issuer", "issuer", help: "Expected `iss`.", default: "https://appleid.apple.com", parser: .nonEmpty)
    static let nonce = Option.optional("nonce", "nonce", help: "Expected `nonce`.", parser: .text)
    static let options: [OptionSpec] = [
        ControlClient.url.spec, audience.spec, issuer.spec, nonce.spec, ControlClient.adminToken.spec,
    ]
    static let positionalsSynopsis: String? = "<id-token>"

    var token: String
    var url: String
    var audience: String?
    var issuer: String
    var nonce: String?
    var adminToken: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else { throw UsageError("Expected exactly one <id-token> argument") }
        token = arguments.positionals[0]
        url = try arguments.read(ControlClient.url)
        audience = try arguments.read(Self.audience)
        issuer = try arguments.read(Self.issuer)
        nonce = try arguments.read(Self.nonce)
        adminToken = try arguments.read(ControlClient.adminToken)
    }

    func run() throws -> Int32 {
        let console = Console()
        let jws: JWS
        do {
            jws = try JWS(compact: token)
        } catch {
            throw RuntimeError("not a JWS: \(error.message)")
        }
        let base = url
        let response: HTTPClientResponse
        do {
            response = try HTTPClient.send(HTTPClientRequest(), to: base + "/auth/keys", timeoutMilliseconds: 5000)
        } catch {
            throw RuntimeError("cannot fetch \(base)/auth/keys: \(error)")
        }
        guard response.status == 200, let json = try? JSONValue.parse(response.body), let jwks = try? JWKS(json: json)
        else { throw RuntimeError("\(base)/auth/keys did not return a JWKS (status \(response.status))") }

        let clock = JudgingClock.read(from: base, adminToken: adminToken)
        let problems = IDTokenVerification.problems(
            of: jws, keys: jwks, issuer: issuer, audience: audience, nonce: nonce, now: clock.now)

        console.out("header: \(JSONValue.object(jws.header).serializedString())")
        console.out("claims: \(JSONValue.object(jws.payload).serializedString())")
        console.out("clock: \(clock.description)")
        if problems.isEmpty {
            console.out("valid: signature and claims check out")
            return 0
        }
        for problem in problems { console.err("invalid: \(problem)") }
        return 1
    }
}
