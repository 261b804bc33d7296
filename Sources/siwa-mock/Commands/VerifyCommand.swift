import HTTPServer
import JOSE
import JSON

/// `siwa-mock verify`: checks an id_token the way Apple tells backends to (signature against the JWKS,
/// `iss`, `aud`, `exp`, optionally `nonce`) and prints its header and claims.
struct VerifyCommand: Command {
    static let name = "verify"
    static let abstract = "Verify an id_token against a running mock's /auth/keys and print its claims."
    static let discussion: String? = """
        Checks the RS256 signature with the key named by the token's `kid`, then `iss`, `aud` (when
        --audience is given), `exp` and `nonce` (when --nonce is given). Exit status 0 when valid, 1 otherwise.
        """
    static let audience = Option.optional(
        "audience", "client-id", help: "Expected `aud` (your bundle ID or Services ID).", parser: .nonEmpty)
    static let issuer = Option(
        "issuer", "issuer", help: "Expected `iss`.", default: "https://appleid.apple.com", parser: .nonEmpty)
    static let nonce = Option.optional("nonce", "nonce", help: "Expected `nonce`.", parser: .text)
    static let options: [OptionSpec] = [ControlClient.url.spec, audience.spec, issuer.spec, nonce.spec]
    static let positionalsSynopsis: String? = "<id-token>"

    var token: String
    var url: String
    var audience: String?
    var issuer: String
    var nonce: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else { throw UsageError("Expected exactly one <id-token> argument") }
        token = arguments.positionals[0]
        url = try arguments.read(ControlClient.url)
        audience = try arguments.read(Self.audience)
        issuer = try arguments.read(Self.issuer)
        nonce = try arguments.read(Self.nonce)
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

        var problems: [String] = []
        if jws.algorithm != "RS256" { problems.append("alg is \(jws.algorithm ?? "missing"), expected RS256") }
        if let kid = jws.keyID, let jwk = jwks.key(withID: kid), let key = try? RSAPublicKey(jwk: jwk) {
            if !jws.isSigned(by: key) { problems.append("signature does not verify with key \(kid)") }
        } else {
            problems.append("no key in the JWKS for kid \(jws.keyID ?? "(none)")")
        }
        if jws.payload["iss"]?.stringValue != issuer { problems.append("iss is not \(issuer)") }
        if let audience, jws.payload["aud"]?.stringValue != audience { problems.append("aud is not \(audience)") }
        if let exp = jws.payload["exp"]?.intValue {
            if exp <= WallClock.now() { problems.append("expired at \(exp)") }
        } else {
            problems.append("exp is missing")
        }
        if let nonce, jws.payload["nonce"]?.stringValue != nonce { problems.append("nonce does not match") }

        console.out("header: \(JSONValue.object(jws.header).serializedString())")
        console.out("claims: \(JSONValue.object(jws.payload).serializedString())")
        if problems.isEmpty {
            console.out("valid: signature and claims check out")
            return 0
        }
        for problem in problems { console.err("invalid: \(problem)") }
        return 1
    }
}
